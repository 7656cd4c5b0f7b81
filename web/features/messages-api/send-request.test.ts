import { describe, expect, test } from 'bun:test'
import { checkSendForm, curlOf, shellQuote } from './send-request.ts'

const form = { token: ' abc123 ', number: '5511999990000', body: "It's shipped", file: null }

describe('the messages API forms', () => {
  test('§5: token, number and a body (text) or a file (media) are required', () => {
    expect(checkSendForm({ token: '', number: ' ', body: '', file: null }, 'text')).toEqual({ token: true, number: true, body: true })
    expect(checkSendForm({ token: 't', number: '1', body: '', file: null }, 'media')).toEqual({ file: true })
    expect(checkSendForm({ ...form, body: '' }, 'media')).toEqual({ file: true })
    expect(checkSendForm(form, 'text')).toEqual({})
  })

  test('the curl quotes what a shell would break on', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`)
    expect(curlOf('https://desk.example', form, 'text')).toBe(
      [
        'curl -X POST https://desk.example/api/messages/send \\',
        "  -H 'Authorization: Bearer abc123' \\",
        "  -H 'Content-Type: application/json' \\",
        `  -d '{"number":"5511999990000","body":"It'\\''s shipped"}'`,
      ].join('\n'),
    )
    const media = curlOf('https://desk.example', { ...form, body: '', file: new File(['x'], 'nota.pdf') }, 'media')
    expect(media).toContain("-F 'number=5511999990000'")
    expect(media).toContain("-F 'medias=@nota.pdf'")
    expect(media).not.toContain('body=')
  })
})
