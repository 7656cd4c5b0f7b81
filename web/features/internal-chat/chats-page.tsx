// /chats and /chats/:uuid (§2 Chat): the list and the open chat side by side on a wide screen, two tabs
// (chats, messages) on a narrow one. Opening a chat records its uuid in the address bar.
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { useViewportWidth } from '../../components/layout/use-viewport-width.ts'
import { usePageTitle } from '../../components/providers.tsx'
import { ChatList } from './chat-list.tsx'
import { ChatPane } from './chat-pane.tsx'
import { CHATS_PATH, chatUuidFromPath, toChatRow, type ChatRow } from './chat-row.ts'
import { useMyChats } from './use-my-chats.ts'
import { lazyPart } from '../../components/lazy-part.tsx'

// Dialogs: chunks of their own, fetched when first rendered (lazy-part.tsx).
const ChatDialog = lazyPart(() => import('./chat-dialog.tsx').then((module) => module.ChatDialog))

/** Below this width the list and the messages share the screen through two tabs. */
export const NARROW_CHATS_BELOW = 900

type NarrowTab = 'chats' | 'messages'

export function ChatsPage() {
  const { t } = useLingui()
  usePageTitle(t`Internal chat`)
  const list = useMyChats()
  const [selectedUuid, setSelectedUuid] = useState(() => chatUuidFromPath(location.pathname))
  const [editing, setEditing] = useState<{ chat: ChatRow | null } | null>(null)
  const [deleting, setDeleting] = useState<ChatRow | null>(null)
  const narrow = useViewportWidth() < NARROW_CHATS_BELOW
  const [tab, setTab] = useState<NarrowTab>(selectedUuid ? 'messages' : 'chats')
  const selected = list.chats.find((chat) => chat.uuid === selectedUuid) ?? null

  useEffect(() => {
    const follow = () => setSelectedUuid(chatUuidFromPath(location.pathname))
    window.addEventListener('popstate', follow)
    return () => window.removeEventListener('popstate', follow)
  }, [])
  useEffect(() => setTab(selectedUuid ? 'messages' : 'chats'), [selectedUuid])
  // A link to a chat beyond the first page: fetch it once the list has loaded without it.
  const missing = Boolean(selectedUuid) && !selected && !list.loading
  useEffect(() => {
    if (!missing || !selectedUuid) return
    void api
      .chats({ id: selectedUuid })
      .get()
      .then(({ data }) => data && list.upsert(toChatRow(data)))
    // list.upsert is a new function each render, the same effect.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [missing, selectedUuid])

  const open = (chat: ChatRow | null) => {
    const uuid = chat?.uuid ?? null
    if (uuid !== selectedUuid) history.pushState(null, '', uuid ? `${CHATS_PATH}/${encodeURIComponent(uuid)}` : CHATS_PATH)
    setSelectedUuid(uuid)
    if (uuid) setTab('messages')
  }

  const confirmDelete = async (): Promise<boolean> => {
    if (!deleting) return true
    const { error } = await api.chats({ id: deleting.id }).delete()
    if (error) return false
    list.remove(deleting.id)
    if (deleting.uuid === selectedUuid) open(null)
    return true
  }

  const chatList = (
    <ChatList
      chats={list.chats}
      selectedId={selected?.id ?? null}
      loading={list.loading}
      hasMore={list.hasMore}
      onLoadMore={list.loadMore}
      onOpen={open}
      onNew={() => setEditing({ chat: null })}
      onEdit={(chat) => setEditing({ chat })}
      onDelete={setDeleting}
    />
  )
  const pane = selected ? (
    <ChatPane key={selected.id} chat={selected} onChatChanged={list.upsert} />
  ) : (
    <p className="chat-placeholder muted-note">{list.loading ? t`Loading…` : t`Choose a chat or start a new one.`}</p>
  )
  const dialogs = (
    <>
      <ChatDialog
        isOpen={editing !== null}
        chat={editing?.chat ?? null}
        onOpenChange={(isOpen) => !isOpen && setEditing(null)}
        onSaved={(chat) => {
          list.upsert(chat)
          if (!editing?.chat) open(chat)
        }}
      />
      <ConfirmDialog title={t`Delete chat`} isOpen={deleting !== null} onOpenChange={(isOpen) => !isOpen && setDeleting(null)} onConfirm={confirmDelete} confirmLabel={t`Delete`}>
        <p>{t`Do you really want to delete this record?`}</p>
        {deleting ? <p className="muted-note">{deleting.title}</p> : null}
      </ConfirmDialog>
    </>
  )

  if (narrow) {
    return (
      <>
        <Tabs className="inbox inbox-narrow" selectedKey={tab} onSelectionChange={(key) => setTab(key as NarrowTab)}>
          <TabList className="inbox-tabs" aria-label={t`Internal chat`}>
            <Tab id="chats">{t`Chats`}</Tab>
            <Tab id="messages">{t`Messages`}</Tab>
          </TabList>
          <TabPanel id="chats" className="inbox-pane">
            {chatList}
          </TabPanel>
          <TabPanel id="messages" className="inbox-pane">
            {pane}
          </TabPanel>
        </Tabs>
        {dialogs}
      </>
    )
  }
  return (
    <>
      <div className="inbox inbox-wide">
        <section className="inbox-list" aria-label={t`Chats`}>
          {chatList}
        </section>
        <section className="inbox-ticket" aria-label={t`Messages`}>
          {pane}
        </section>
      </div>
      {dialogs}
    </>
  )
}
