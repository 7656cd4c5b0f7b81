// The tag modal (§2 Modals "tag", §5 Tag: name required, at least 3): name, colour and, for supervisors
// and admins only (§6), the kanban switch. Creates (POST /tags) or edits (PUT /tags/{id}).
import { useLingui } from '@lingui/react/macro'
import { useState, type FormEvent } from 'react'
import { Form } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { DialogFooter, FormAlert } from '../../components/dialog-footer.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { lengthBetween } from '../../forms/validation.ts'
import { colorInputValue } from './color.ts'
import { SwitchField } from '../../components/switch-field.tsx'
import { errorMessage } from '../../i18n/error-messages.ts'
import type { TagRow } from './tag-row.ts'
import { refusalErrors } from '../../forms/refusal-errors.ts'
import { toastFailure } from '../../components/failure-toast.ts'

export const DEFAULT_TAG_COLOR = '#1d4ed8'

type Errors = { name?: string; color?: string; form?: string }

type TagFormProps = { tag: TagRow | null; showKanban: boolean; onSaved: (tag: TagRow) => void; onDone: () => void }

function TagForm({ tag, showKanban, onSaved, onDone }: TagFormProps) {
  const { t, i18n } = useLingui()
  const [name, setName] = useState(tag?.name ?? '')
  const initialColor = colorInputValue(tag?.color, DEFAULT_TAG_COLOR)
  const [color, setColor] = useState(initialColor)
  const [kanban, setKanban] = useState(tag?.kanban === 1)
  const [errors, setErrors] = useState<Errors>({})
  const [pending, setPending] = useState(false)

  const rules = { name: t`Enter a name of at least 3 characters (at most 50).`, color: t`Pick a colour.` }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const found: Errors = {}
    if (!lengthBetween(name, 3, 50)) found.name = rules.name
    setErrors(found)
    if (Object.keys(found).length > 0) return
    // The kanban flag is sent only by those who may set it: the server refuses it from anyone else.
    // An edit sends the colour only when it was changed: a stored one the input cannot show stays as it is.
    const body = { name: name.trim(), ...(!tag || color !== initialColor ? { color } : {}), ...(showKanban ? { kanban: kanban ? (1 as const) : (0 as const) } : {}) }
    setPending(true)
    try {
      const { data, error } = tag ? await api.tags({ id: tag.id }).put(body) : await api.tags.post(body)
      if (error || !data) {
        const fromServer: Errors = refusalErrors(apiErrorOf(error), rules, (code) => errorMessage(i18n, code), { code: 'ERR_TAG_NAME_ALREADY_EXISTS', field: 'name' })
        if (fromServer.form) showToast('error', fromServer.form)
        setErrors(fromServer)
        return
      }
      onSaved(data)
      showToast('success', tag ? t`Tag saved.` : t`Tag created.`)
      onDone()
    } catch (failure) {
      const text = toastFailure(i18n, failure)
      setErrors({ form: text })
    } finally {
      setPending(false)
    }
  }

  return (
    <Form className="form" onSubmit={submit} validationBehavior="aria">
      <FormAlert text={errors.form} />
      <TextField label={t`Name`} name="name" value={name} onChange={setName} error={errors.name} isRequired autoFocus maxLength={50} />
      <div className="field">
        <label className="field-label" htmlFor="tag-color">
          {t`Colour`}
        </label>
        <div className="color-field">
          <input id="tag-color" className="color-input" type="color" value={color} onChange={(event) => setColor(event.target.value)} />
          <span className="color-field-value">{color}</span>
        </div>
        {errors.color ? <p className="field-error">{errors.color}</p> : null}
      </div>
      {showKanban ? (
        <SwitchField isSelected={kanban} onChange={setKanban} description={t`The tag becomes a lane of the kanban board.`}>
          {t`Kanban lane`}
        </SwitchField>
      ) : null}
      <DialogFooter onCancel={onDone} pending={pending} />
    </Form>
  )
}

export type TagDialogProps = { isOpen: boolean; tag: TagRow | null; showKanban: boolean; onOpenChange: (isOpen: boolean) => void; onSaved: (tag: TagRow) => void }

export function TagDialog({ isOpen, tag, showKanban, onOpenChange, onSaved }: TagDialogProps) {
  const { t } = useLingui()
  return (
    <Dialog title={tag ? t`Edit tag` : t`New tag`} isOpen={isOpen} onOpenChange={onOpenChange}>
      {/* Keyed by the tag: opening another one starts from its own values. */}
      <TagForm key={tag?.id ?? 'new'} tag={tag} showKanban={showKanban} onSaved={onSaved} onDone={() => onOpenChange(false)} />
    </Dialog>
  )
}
