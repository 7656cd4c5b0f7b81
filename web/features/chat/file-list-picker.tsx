// The chat input's file lists (§3 File list): a menu of the company's lists; picking one attaches its
// files (and its message, when nothing is typed yet), a quick way to send the same set of files again.
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { Button, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { FilesIcon } from '../../components/icons.tsx'
import type { FileList } from '../../../src/modules/file-lists/model.ts'

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
    <MenuTrigger onOpenChange={(isOpen) => isOpen && void load()}>
      <Button className="button button-ghost button-icon chat-input-tool" aria-label={t`Send a file list`} isDisabled={isDisabled}>
        <FilesIcon />
      </Button>
      <Popover className="popover" placement="top start">
        <Menu
          className="menu"
          aria-label={t`File lists`}
          onAction={(key) => {
            const picked = fileLists?.find((fileList) => fileList.id === Number(key))
            if (picked) onPick(picked)
          }}
          renderEmptyState={() => <p className="menu-empty">{fileLists === null ? t`Loading…` : t`No file list with files yet.`}</p>}
        >
          {(fileLists ?? []).map((fileList) => {
            const count = fileList.options.length
            return (
              <MenuItem key={fileList.id} id={fileList.id} className="menu-item" textValue={fileList.name}>
                {fileList.name} <span className="muted-note">({t`${count} files`})</span>
              </MenuItem>
            )
          })}
        </Menu>
      </Popover>
    </MenuTrigger>
  )
}
