// The message input of a ticket (§2 Tickets, "The message input"): emoji, files, the sign switch,
// up to 5 rows of text with the '/' quick-reply shortcut, the reply quote, and voice recording.
// Disabled, with a hint, unless the ticket is open.
import { useLingui } from '@lingui/react/macro'
import { useAtom } from 'jotai'
import { useEffect, useId, useLayoutEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react'
import { Switch } from 'react-aria-components'
import type { TicketView } from '../../../src/modules/tickets/model.ts'
import { maxFilesPerSend } from './limits.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { CloseIcon } from '../../components/icons.tsx'
import { showToast } from '../../components/toasts.tsx'
import { AttachmentList, attachmentOf, releaseAttachment, type Attachment } from './attachments.tsx'
import { MicIcon, PaperclipIcon, SendIcon } from './chat-icons.tsx'
import { EmojiPicker } from './emoji-picker.tsx'
import { publishLocalMessages } from './local-messages.ts'
import { downloadAttachment, matchQuickReplies, type StoredAttachment } from './quick-replies.ts'
import { FileListPicker } from './file-list-picker.tsx'
import { VoiceRecorder } from './voice-recorder.tsx'
import { replyingToAtom } from './reply-state.ts'
import { showApiError } from './show-api-error.ts'
import { readSignOption, writeSignOption } from './sign-option.ts'
import { useQuickReplies } from './use-quick-replies.ts'
import '../../styles/chat.css'

export function MessageInput({ ticket }: { ticket: TicketView }) {
  const { t, i18n } = useLingui()
  const [text, setText] = useState('')
  const [attachments, setAttachments] = useState<Attachment[]>([])
  const [sign, setSign] = useState(readSignOption)
  const [sending, setSending] = useState(false)
  const [recording, setRecording] = useState(false)
  const [replyTarget, setReplyTarget] = useAtom(replyingToAtom)
  const [activeOption, setActiveOption] = useState(0)
  const [optionsDismissed, setOptionsDismissed] = useState(false)
  const { quickMessages, ensureLoaded } = useQuickReplies()
  const textarea = useRef<HTMLTextAreaElement>(null)
  const fileInput = useRef<HTMLInputElement>(null)
  const listboxId = useId()
  const hintId = useId()

  const isOpen = ticket.status === 'open'
  const disabled = !isOpen || sending
  const reply = replyTarget?.ticketId === ticket.id ? replyTarget.message : null
  const options = optionsDismissed ? [] : matchQuickReplies(text, quickMessages)
  const canSend = text.trim().length > 0 || attachments.length > 0

  // A reply chosen in another ticket does not follow into this one.
  useEffect(() => {
    if (replyTarget && replyTarget.ticketId !== ticket.id) setReplyTarget(null)
  }, [replyTarget, setReplyTarget, ticket.id])

  useEffect(() => {
    if (reply) textarea.current?.focus()
  }, [reply])

  // The previews' object URLs are released with the input.
  const attachmentsRef = useRef(attachments)
  attachmentsRef.current = attachments
  useEffect(() => () => attachmentsRef.current.forEach(releaseAttachment), [])

  // Grows with the text up to 5 rows (max-height in chat.css), then scrolls.
  useLayoutEffect(() => {
    const element = textarea.current
    if (!element) return
    element.style.height = 'auto'
    element.style.height = `${element.scrollHeight + (element.offsetHeight - element.clientHeight)}px`
  }, [text])

  const addFiles = (files: FileList | File[]) => {
    const list = Array.from(files)
    if (list.length === 0) return
    setAttachments((current) => {
      const room = maxFilesPerSend - current.length
      if (list.length > room) showToast('warning', t`Up to ${maxFilesPerSend} files per message.`)
      return [...current, ...list.slice(0, Math.max(0, room)).map(attachmentOf)]
    })
  }

  const removeAttachment = (id: string) => {
    setAttachments((current) => {
      const gone = current.find((item) => item.id === id)
      if (gone) releaseAttachment(gone)
      return current.filter((item) => item.id !== id)
    })
  }

  const toggleSign = (value: boolean) => {
    setSign(value)
    writeSignOption(value)
  }

  const insertEmoji = (emoji: string) => {
    const element = textarea.current
    const start = element?.selectionStart ?? text.length
    const end = element?.selectionEnd ?? text.length
    setText(text.slice(0, start) + emoji + text.slice(end))
    requestAnimationFrame(() => {
      element?.focus()
      element?.setSelectionRange(start + emoji.length, start + emoji.length)
    })
  }

  /** Posts text or files; true when the input may be cleared (sent, or stored with a send error). */
  const post = async (input: { body?: string; medias?: File[] }): Promise<boolean> => {
    const quotedMsg = reply?.id
    const request = input.medias
      ? { medias: input.medias, ...(input.body ? { body: input.body } : {}), ...(quotedMsg ? { quotedMsg } : {}), sign }
      : { body: input.body ?? '', ...(quotedMsg ? { quotedMsg } : {}), sign }
    const { data, error } = await api.messages({ id: ticket.id }).post(request)
    if (data) {
      publishLocalMessages(data.messages)
      return true
    }
    showApiError(i18n, error)
    // 502: WhatsApp refused it, but the message is stored and shown with its error (and arrives by realtime).
    return apiErrorOf(error).code === 'ERR_SENDING_WAPP_MSG'
  }

  const send = async () => {
    if (disabled || !canSend) return
    setSending(true)
    try {
      const body = text.trim()
      const files = attachments.map((item) => item.file)
      const done = await post(files.length > 0 ? { body, medias: files } : { body })
      if (done) {
        setText('')
        attachments.forEach(releaseAttachment)
        setAttachments([])
        setReplyTarget(null)
      }
    } finally {
      setSending(false)
      requestAnimationFrame(() => textarea.current?.focus())
    }
  }

  const sendRecording = async (file: File) => {
    setSending(true)
    try {
      if (await post({ medias: [file] })) setReplyTarget(null)
    } finally {
      setSending(false)
      setRecording(false)
    }
  }

  /** Adds stored files (a quick reply's attachment, a file list) as attachments of the message being written. */
  const attachStored = async (medias: StoredAttachment[]) => {
    try {
      addFiles(await Promise.all(medias.map((media) => downloadAttachment(media))))
    } catch {
      showToast('error', t`The attachment could not be loaded. Try again.`)
    }
  }

  // A quick reply with an attachment brings its file along: the text and the file go out together.
  const chooseQuickReply = (index: number) => {
    const option = options[index]
    if (!option) return
    setText(option.message)
    setOptionsDismissed(true)
    if (option.media) void attachStored([option.media])
    requestAnimationFrame(() => textarea.current?.focus())
  }

  const chooseFileList = (fileList: { message: string; options: { mediaUrl: string; name: string }[] }) => {
    if (!text.trim()) setText(fileList.message)
    void attachStored(fileList.options.map((option) => ({ url: option.mediaUrl, name: option.name })))
    requestAnimationFrame(() => textarea.current?.focus())
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (options.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault()
        const step = event.key === 'ArrowDown' ? 1 : -1
        setActiveOption((activeOption + step + options.length) % options.length)
        return
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault()
        chooseQuickReply(activeOption)
        return
      }
      if (event.key === 'Escape') {
        event.preventDefault()
        setOptionsDismissed(true)
        return
      }
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      void send()
    }
  }

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    if (event.clipboardData.files.length > 0) {
      event.preventDefault()
      addFiles(event.clipboardData.files)
    }
  }

  const hint = ticket.status === 'pending' ? t`Accept the ticket to reply.` : t`This ticket is closed. Reopen it to reply.`

  return (
    <div className="message-input" data-ticket={ticket.id} data-disabled={!isOpen || undefined}>
      {!isOpen ? (
        <p className="chat-input-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {reply ? (
        <div className="chat-reply-preview" data-quoted-id={reply.id}>
          <div className="chat-reply-quote">
            <span className="chat-quote-author">{reply.fromMe ? t`You` : ticket.contact.name}</span>
            <span className="chat-quote-text">{reply.body || reply.mediaName || t`Media`}</span>
          </div>
          <Button variant="ghost" icon aria-label={t`Cancel reply`} onPress={() => setReplyTarget(null)}>
            <CloseIcon />
          </Button>
        </div>
      ) : null}
      <AttachmentList attachments={attachments} onRemove={removeAttachment} />
      {options.length > 0 ? (
        <ul className="chat-quick-replies" role="listbox" id={listboxId} aria-label={t`Quick replies`}>
          {options.map((option, index) => (
            <li
              key={option.id}
              id={`${listboxId}-${index}`}
              role="option"
              aria-selected={index === activeOption}
              className="chat-quick-reply"
              onMouseDown={(event) => {
                // Keeps the focus in the text while choosing with the mouse.
                event.preventDefault()
                chooseQuickReply(index)
              }}
            >
              {option.label}
            </li>
          ))}
        </ul>
      ) : null}
      {recording ? (
        <VoiceRecorder onCancel={() => setRecording(false)} onRecorded={(file) => void sendRecording(file)} />
      ) : (
        <div className="chat-input-bar">
          <EmojiPicker onPick={insertEmoji} isDisabled={disabled} />
          <Button variant="ghost" icon className="chat-input-tool" aria-label={t`Attach files`} isDisabled={disabled} onPress={() => fileInput.current?.click()}>
            <PaperclipIcon />
          </Button>
          <FileListPicker isDisabled={disabled} onPick={chooseFileList} />
          <input
            ref={fileInput}
            type="file"
            multiple
            hidden
            className="chat-file-input"
            onChange={(event) => {
              if (event.target.files) addFiles(event.target.files)
              event.target.value = ''
            }}
          />
          <Switch className="chat-sign-switch" isSelected={sign} onChange={toggleSign} isDisabled={!isOpen}>
            <span className="chat-switch-track" aria-hidden="true">
              <span className="chat-switch-thumb" />
            </span>
            <span className="chat-switch-label">{t`Sign`}</span>
          </Switch>
          <textarea
            ref={textarea}
            className="chat-textarea"
            rows={1}
            value={text}
            disabled={!isOpen}
            aria-label={t`Message`}
            aria-describedby={!isOpen ? hintId : undefined}
            placeholder={isOpen ? t`Type a message, or / for quick replies` : ''}
            aria-autocomplete="list"
            aria-controls={options.length > 0 ? listboxId : undefined}
            aria-activedescendant={options.length > 0 ? `${listboxId}-${activeOption}` : undefined}
            onChange={(event) => {
              const value = event.target.value
              setText(value)
              setActiveOption(0)
              setOptionsDismissed(false)
              if (value.startsWith('/')) ensureLoaded()
            }}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
          />
          {canSend || !isOpen ? (
            <Button variant="primary" icon className="chat-send" aria-label={t`Send`} isDisabled={disabled || !canSend} isPending={sending} onPress={() => void send()}>
              <SendIcon />
            </Button>
          ) : (
            <Button variant="ghost" icon className="chat-input-tool chat-record" aria-label={t`Record audio`} isDisabled={disabled} onPress={() => setRecording(true)}>
              <MicIcon />
            </Button>
          )}
        </div>
      )}
    </div>
  )
}
