// The chat input's file lists (§3 File list): a menu of the company's lists; picking one attaches its
// files (and its message, when nothing is typed yet), a quick way to send the same set of files again.
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { Button } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { FilesIcon } from '../../components/icons.tsx'
import type { FileList } from '../../../src/modules/file-lists/model.ts'
import { LazyPopoverMenu } from '../../components/lazy-popover-menu.tsx'
import { SplitMenuTrigger } from '../../components/overlay-trigger.tsx'

type PickedFileList = Pick<FileList, 'id' | 'name' | 'message' | 'options'>

export function FileListPicker({ isDisabled, onPick }: { isDisabled: boolean; onPick: (fileList: PickedFileList) => void }) {
  const { t } = useLingui()
  const [fileLists, setFileLists] = useState<PickedFileList[] | null>(null)
  // Loaded each time the menu opens: lists change on the /files page while a ticket stays open.
  const load = async () => {
    const { data } = await api.files.list.get()
    setFileLists(data ? data.filter((fileList) => fileList.options.length > 0) : [])
  }
  return (
    <SplitMenuTrigger
      onOpenChange={(isOpen) => isOpen && void load()}
      menu={(trigger) => (
        <LazyPopoverMenu
          trigger={trigger}
          placement="top start"
          aria-label={t`File lists`}
          onAction={(key) => {
            const picked = fileLists?.find((fileList) => fileList.id === Number(key))
            if (picked) onPick(picked)
          }}
          emptyState={<p className="menu-empty">{fileLists === null ? t`Loading…` : t`No file list with files yet.`}</p>}
          items={(fileLists ?? []).map((fileList) => {
            const count = fileList.options.length
            return {
              id: fileList.id,
              textValue: fileList.name,
              children: (
                <>
                  {fileList.name} <span className="muted-note">({t`${count} files`})</span>
                </>
              ),
            }
          })}
        />
      )}
    >
      <Button className="button button-ghost button-icon chat-input-tool" aria-label={t`Send a file list`} isDisabled={isDisabled}>
        <FilesIcon />
      </Button>
    </SplitMenuTrigger>
  )
}
