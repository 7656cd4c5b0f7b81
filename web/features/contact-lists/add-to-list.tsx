// Adding contacts picked in /contacts to a contact list (issue 12: "a list from contacts selected in
// /contacts"): a checkbox column for the contacts table, and the button and dialog that send the
// picked ids to POST /contact-lists/{id}/contacts, into an existing list or a new one.
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { Button } from '../../components/button.tsx'
import type { AdminColumn } from '../../components/data-table.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { ListIcon } from '../../components/icons.tsx'
import { lazyPart } from '../../components/lazy-part.tsx'

// The dialog's form (a Select of the lists): a chunk of its own, fetched when the dialog first opens.
const AddToListForm = lazyPart(() => import('./add-to-list-form.tsx').then((module) => module.AddToListForm))

/** The first column of the contacts table: a checkbox per contact, named by the contact. */
export function selectionColumn<Row extends { id: number; name: string }>(label: string, labelOf: (row: Row) => string, selected: ReadonlySet<number>, toggle: (id: number) => void): AdminColumn<Row> {
  return {
    id: 'select',
    header: () => <span className="visually-hidden">{label}</span>,
    cell: ({ row }) => (
      <input type="checkbox" className="row-select" aria-label={labelOf(row.original)} checked={selected.has(row.original.id)} onChange={() => toggle(row.original.id)} />
    ),
  }
}

/**
 * The contacts page's buttons: "Add to a contact list" starts picking (the table shows its checkboxes);
 * while picking, the button opens the dialog for the picked contacts, and Cancel stops.
 */
export function AddToListButtons({ picking, contactIds, onPicking, onDone }: { picking: boolean; contactIds: number[]; onPicking: (picking: boolean) => void; onDone: () => void }) {
  const { t } = useLingui()
  const [open, setOpen] = useState(false)
  const count = contactIds.length
  if (!picking) {
    return (
      // An icon: the contacts page's header is full; assistive technology reads its name.
      <Button variant="secondary" icon aria-label={t`Add to a contact list`} onPress={() => onPicking(true)}>
        <ListIcon />
      </Button>
    )
  }
  return (
    <>
      <Button variant="secondary" onPress={() => onPicking(false)}>
        {t`Cancel`}
      </Button>
      <Button isDisabled={count === 0} onPress={() => setOpen(true)}>
        <ListIcon />
        {t`Add ${count} to a list`}
      </Button>
      <Dialog title={t`Add to a contact list`} isOpen={open} onOpenChange={setOpen}>
        <AddToListForm
          contactIds={contactIds}
          onDone={(added) => {
            setOpen(false)
            if (added) onDone()
          }}
        />
      </Dialog>
    </>
  )
}
