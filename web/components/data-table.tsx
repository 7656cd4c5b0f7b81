// The admin lists' table (§2 Other screens): headless @tanstack/react-table v9 for columns and cells,
// our markup for styling and accessibility, and infinite scroll through a sentinel row watched by an
// IntersectionObserver (the lists of §7 are paged with pageNumber/hasMore).
import { tableFeatures, useTable, type ColumnDef, type RowData } from '@tanstack/react-table'
import { useEffect, useRef } from 'react'

export const adminTableFeatures = tableFeatures({})
/** A column of an admin table; `meta.align: 'end'` right-aligns numbers and action buttons. */
export type AdminColumn<Row extends RowData> = ColumnDef<typeof adminTableFeatures, Row>

export type DataTableProps<Row extends RowData> = {
  /** Names the table for assistive technology. */
  label: string
  columns: AdminColumn<Row>[]
  rows: Row[]
  rowId: (row: Row) => string | number
  /** Shown when there are no rows and nothing is loading. */
  emptyText: string
  loading?: boolean
  loadingText?: string
  hasMore?: boolean
  onLoadMore?: () => void
  /** Extra class per row, e.g. the companies' due-date colours. */
  rowClassName?: (row: Row) => string | undefined
}

export function DataTable<Row extends RowData>({ label, columns, rows, rowId, emptyText, loading, loadingText, hasMore, onLoadMore, rowClassName }: DataTableProps<Row>) {
  const table = useTable({ features: adminTableFeatures, columns, data: rows, getRowId: (row) => String(rowId(row)) })
  const sentinel = useRef<HTMLTableRowElement>(null)
  const loadMore = useRef(onLoadMore)
  loadMore.current = onLoadMore

  useEffect(() => {
    const element = sentinel.current
    if (!element || !hasMore || loading) return
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) loadMore.current?.()
    })
    observer.observe(element)
    return () => observer.disconnect()
  }, [hasMore, loading, rows.length])

  const columnCount = columns.length
  return (
    <div className="data-table-frame">
      <table className="data-table" aria-label={label} aria-busy={loading || undefined}>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} scope="col" data-align={alignOf(header.column.columnDef)}>
                  {header.isPlaceholder ? null : <table.FlexRender header={header} />}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id} className={rowClassName?.(row.original)}>
              {row.getAllCells().map((cell) => (
                <td key={cell.id} data-align={alignOf(cell.column.columnDef)}>
                  <table.FlexRender cell={cell} />
                </td>
              ))}
            </tr>
          ))}
          {rows.length === 0 && !loading ? (
            <tr>
              <td colSpan={columnCount} className="data-table-empty">
                {emptyText}
              </td>
            </tr>
          ) : null}
          {loading ? (
            <tr>
              <td colSpan={columnCount} className="data-table-loading" role="status">
                {loadingText ?? '…'}
              </td>
            </tr>
          ) : null}
          {hasMore && !loading ? (
            <tr ref={sentinel} aria-hidden="true">
              <td colSpan={columnCount} className="data-table-sentinel" />
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  )
}

function alignOf(column: { meta?: unknown }): string | undefined {
  const meta = column.meta as { align?: string } | undefined
  return meta?.align
}
