// zapdesk sim: play the customers' side of a simulated WhatsApp connection. The simulator lives inside
// the running server (WHATSAPP_SIMULATOR=1), so these commands talk to the server's REST API, signed in
// as an admin of the connection's company, rather than to the database.
import { treaty } from '@elysiajs/eden'
import type { Command } from 'commander'
import { basename } from 'node:path'
import type { App } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { emailOption, integerOption, textOption } from '../options.ts'
import { CliError, printJson, printRecord, printTable } from '../output.ts'

type ServerOptions = { url?: string; token?: string; email?: string; password?: string }
type SendOptions = ServerOptions & {
  connection: number
  from: string
  body?: string
  name?: string
  quoted?: string
  id?: string
  media?: string
  participant?: string
  json?: boolean
}
type OutboxOptions = ServerOptions & { connection: number; to?: string; json?: boolean }
type AckOptions = ServerOptions & { connection: number; id: string; ack: number; json?: boolean }

const SERVER_HELP = `
These commands reach the RUNNING server (the simulated network lives in its process), which must have
been started with WHATSAPP_SIMULATOR=1. Sign in as an admin of the connection's company with --token
(an access token) or --email and --password. --url defaults to PUBLIC_URL (http://localhost:PORT).`

function digitsOption(name: string) {
  return textOption(name, { min: 8, max: 20 })
}

function withServerOptions(command: Command): Command {
  return command
    .option('--url <url>', 'the server, default PUBLIC_URL')
    .option('--token <token>', 'an access token of an admin of the company')
    .option('--email <email>', "an admin's e-mail, to sign in", emailOption)
    .option('--password <password>', "that admin's password")
    .addHelpText('after', SERVER_HELP)
}

type ErrorResult = { status: number; value: unknown }

/** One line for a refusal of the server, with a hint for the usual causes. */
function refusal(error: ErrorResult): CliError {
  const code = (error.value as { error?: unknown } | undefined)?.error
  const fields = (error.value as { fields?: { field: string; message: string }[] } | undefined)?.fields
  if (code === 'ERR_NOT_FOUND') return new CliError('the server has no simulator: start it with WHATSAPP_SIMULATOR=1')
  if (code === 'ERR_NO_WAPP_FOUND') return new CliError('no simulated connection with this id in your company (ERR_NO_WAPP_FOUND)')
  if (code === 'ERR_WAPP_NOT_INITIALIZED') return new CliError('the simulated connection is not connected: start its session first (ERR_WAPP_NOT_INITIALIZED)')
  if (fields?.length) return new CliError(fields.map((field) => field.message || `${field.field} is invalid`).join('; '))
  return new CliError(`the server answered ${error.status}${typeof code === 'string' ? ` ${code}` : ''}`)
}

/** Runs a request, turning "nobody listens there" into a clear line. */
async function reach<Result>(url: string, request: () => Promise<Result>): Promise<Result> {
  try {
    return await request()
  } catch (error) {
    throw new CliError(`cannot reach the server at ${url} (${error instanceof Error ? error.message : String(error)}): is it running?`)
  }
}

async function signedInClient(options: ServerOptions) {
  const url = (options.url ?? loadConfig().publicUrl).replace(/\/$/, '')
  let token = options.token
  if (!token) {
    if (!options.email || !options.password) throw new CliError('sign in with --token, or with --email and --password')
    const { email, password } = options
    const login = await reach(url, () => treaty<App>(url).api.auth.login.post({ email, password }))
    if (login.error) throw new CliError(`sign-in refused (${(login.error.value as { error?: string }).error ?? login.error.status})`)
    token = login.data.token
  }
  return { url, client: treaty<App>(url, { headers: { authorization: `Bearer ${token}` } }) }
}

async function mediaFile(path: string): Promise<File> {
  const file = Bun.file(path)
  if (!(await file.exists())) throw new CliError(`no such file: ${path}`)
  return new File([await file.arrayBuffer()], basename(path), { type: file.type })
}

const ellipsis = (text: string, length: number) => (text.length > length ? `${text.slice(0, length - 1)}…` : text)

export function registerSimulator(program: Command): void {
  const group = program
    .command('sim')
    .description("the WhatsApp simulator: customers writing in, receipts, what the platform sent (needs the server's WHATSAPP_SIMULATOR=1)")
    .addHelpText('after', SERVER_HELP)

  withServerOptions(
    group
      .command('send')
      .description('a customer writes in through a simulated connection; prints the message id')
      .requiredOption('--connection <id>', 'the simulated connection (whatsapp id)', integerOption('connection', { min: 1, max: 2_147_483_647 }))
      .requiredOption('--from <number>', "the customer's number, digits with country code", digitsOption('from'))
      .option('--body <text>', 'the text (or the caption of --media)')
      .option('--name <name>', "the customer's WhatsApp name")
      .option('--quoted <id>', 'the id of the message this one replies to')
      .option('--id <id>', 'the WhatsApp id to give the message (default: generated; the same id twice is a redelivery)')
      .option('--media <file>', 'a file the customer sends (image, audio, video, document)')
      .option('--participant <number>', 'in a group: the member who writes (then --from is the group id)', digitsOption('participant'))
      .option('--json', 'print {"id": ...} as JSON')
      .addHelpText('after', '\nExample: zapdesk sim send --connection 1 --from 5511999990001 --name Ana --body "Hello!" --email admin@demo.zapdesk.local --password ...'),
  ).action(async (options: SendOptions) => {
    if (!options.body && !options.media) throw new CliError('give --body, --media or both')
    const { url, client } = await signedInClient(options)
    const body = {
      from: options.from,
      name: options.name,
      body: options.body,
      quotedId: options.quoted,
      id: options.id,
      participant: options.participant,
      media: options.media ? await mediaFile(options.media) : undefined,
    }
    const result = await reach(url, () => client.api.simulator({ whatsappId: options.connection }).inbound.post(body))
    if (result.error) throw refusal(result.error)
    if (options.json) return printJson(result.data)
    printRecord([
      ['Message', result.data.id],
      ['Connection', options.connection],
      ['From', options.from],
    ])
  })

  withServerOptions(
    group
      .command('outbox')
      .description('what the platform sent through a simulated connection, oldest first')
      .requiredOption('--connection <id>', 'the simulated connection (whatsapp id)', integerOption('connection', { min: 1, max: 2_147_483_647 }))
      .option('--to <number>', 'only what was sent to this number', digitsOption('to'))
      .option('--json', 'print the messages as JSON'),
  ).action(async (options: OutboxOptions) => {
    const { url, client } = await signedInClient(options)
    const result = await reach(url, () => client.api.simulator({ whatsappId: options.connection }).outbox.get({ query: { to: options.to } }))
    if (result.error) throw refusal(result.error)
    const { messages } = result.data
    if (options.json) return printJson(messages)
    printTable(messages, [
      { header: 'Id', value: (message) => message.id },
      { header: 'To', value: (message) => message.to },
      { header: 'Body', value: (message) => ellipsis(message.body, 50) },
      { header: 'Media', value: (message) => message.media?.fileName },
      { header: 'Quoted', value: (message) => message.quotedId },
      { header: 'Ack', value: (message) => message.ack },
      { header: 'Deleted', value: (message) => (message.deleted ? 'yes' : '') },
      { header: 'Sent at', value: (message) => message.timestamp },
    ])
  })

  withServerOptions(
    group
      .command('ack')
      .description("WhatsApp reports a receipt for a message the platform sent (4: the customer read it)")
      .requiredOption('--connection <id>', 'the simulated connection (whatsapp id)', integerOption('connection', { min: 1, max: 2_147_483_647 }))
      .requiredOption('--id <id>', 'the message id, as the outbox shows it')
      .requiredOption('--ack <ack>', '0 error, 1 sent, 2 server, 3 delivered, 4 read, 5 played', integerOption('ack', { min: 0, max: 5 }))
      .option('--json', 'print {"ok": true} as JSON'),
  ).action(async (options: AckOptions) => {
    const { url, client } = await signedInClient(options)
    const result = await reach(url, () => client.api.simulator({ whatsappId: options.connection }).ack.post({ id: options.id, ack: options.ack }))
    if (result.error) throw refusal(result.error)
    if (options.json) return printJson(result.data)
    console.log(`ack ${options.ack} reported for ${options.id}`)
  })
}
