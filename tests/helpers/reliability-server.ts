// A server process for the reliability tests: the whole app (createApp, as src/main.ts composes it) on
// DATABASE_URL and DATA_DIR, with one simulated connection, and a control port that pours a customer's
// message straight into the simulator. The simulator's HTTP route cannot do that while the database is
// down (signing in needs it); WhatsApp, which this plays, does not need our database to deliver.
// Env: DATABASE_URL, DATA_DIR, COMPANY_ID, WHATSAPP_ID, CONTROL_PORT. Answers 200 once simulateInbound
// resolved, i.e. once the message was acknowledged.
import { openPostgres, surviveDroppedPostgresSocket } from '../../db/client.ts'
import { createApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { createSimulator } from '../../src/channels/simulator/simulator.ts'
import { createLogger } from '../../src/core/logger.ts'
import { createDeps } from '../../src/modules/deps.ts'

const config = { ...loadConfig(), whatsappSimulator: true }
const logger = createLogger(config.logLevel)
surviveDroppedPostgresSocket((error) => logger.error('database connection dropped mid-write', { error }))
const database = await openPostgres(config.databaseUrl!, { max: 10 })
const simulator = createSimulator({ logger })
simulator.configure({ qrDelayMs: 10, connectDelayMs: 10 })
const app = createApp(createDeps({ db: database.db, config, logger }), { simulator })
app.listen({ port: 0, hostname: '127.0.0.1' })
const { connections } = app.decorator
const ref = { companyId: Number(process.env.COMPANY_ID), whatsappId: Number(process.env.WHATSAPP_ID) }
await connections.start(ref)
while (!simulator.isConnected(ref.whatsappId)) await Bun.sleep(10)

Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.CONTROL_PORT),
  async fetch(request) {
    const { id, from } = (await request.json()) as { id: string; from: string }
    await simulator.simulateInbound(ref.whatsappId, { id, from, body: `burst ${id}` })
    return Response.json({ id })
  },
})

process.on('SIGTERM', async () => {
  await connections.close().catch(() => undefined)
  await app.stop().catch(() => undefined)
  process.exit(0)
})
