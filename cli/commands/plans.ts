import { InvalidArgumentError, type Command } from 'commander'
import { PlanBody, PlanUpdateBody, type Plan } from '../../src/modules/plans/model.ts'
import { findPlans } from '../../src/modules/plans/queries.ts'
import { createPlan, deletePlan, updatePlan } from '../../src/modules/plans/service.ts'
import { EMBEDDED_DATABASE_NOTE, withDatabase } from '../database.ts'
import { cliDeps } from '../deps.ts'
import { integerOption, moneyOption, textOption } from '../options.ts'
import { CliError, printJson, printRecord, printTable } from '../output.ts'
import { findPlanByReference } from '../lookups.ts'
import { assertMatches } from '../validate.ts'

type PlanCreateOptions = {
  name: string
  users: number
  connections: number
  queues: number
  value: number
  campaigns: boolean
  kanban: boolean
  openAi: boolean
  integrations: boolean
  schedules: boolean
  internalChat: boolean
  externalApi: boolean
  private?: boolean
  json?: boolean
}

const limit = (name: string) => integerOption(name, { min: 1, max: 1_000_000 })

const features: [flag: keyof Plan, label: string][] = [
  ['useCampaigns', 'campaigns'],
  ['useKanban', 'kanban'],
  ['useOpenAi', 'open-ai'],
  ['useIntegrations', 'integrations'],
  ['useSchedules', 'schedules'],
  ['useInternalChat', 'internal-chat'],
  ['useExternalApi', 'external-api'],
]

const enabledFeatures = (plan: Plan) => features.filter(([flag]) => plan[flag] === true).map(([, label]) => label).join(',') || 'none'

export function registerPlans(program: Command): void {
  const group = program.command('plans').description('the plans companies subscribe to').addHelpText('after', EMBEDDED_DATABASE_NOTE)

  group
    .command('create')
    .description('create a plan: limits on users, connections and queues, a monthly value, features (all on by default)')
    .requiredOption('--name <name>', 'plan name, unique ignoring case', textOption('name', { min: 1, max: 100 }))
    .requiredOption('--users <n>', 'users allowed', limit('users'))
    .requiredOption('--connections <n>', 'WhatsApp connections allowed', limit('connections'))
    .requiredOption('--queues <n>', 'queues allowed', limit('queues'))
    .requiredOption('--value <amount>', 'monthly price, e.g. 49.90', moneyOption('value'))
    .option('--no-campaigns', 'without campaigns')
    .option('--no-kanban', 'without the kanban')
    .option('--no-open-ai', 'without OpenAI prompts')
    .option('--no-integrations', 'without queue integrations')
    .option('--no-schedules', 'without scheduled messages')
    .option('--no-internal-chat', 'without the internal chat')
    .option('--no-external-api', 'without the external messages API')
    .option('--private', 'not offered on the public signup page')
    .option('--json', 'print the plan as JSON')
    .addHelpText('after', '\nExample: zapdesk plans create --name Basic --users 5 --connections 2 --queues 3 --value 49 --no-open-ai')
    .action(async (options: PlanCreateOptions) => {
      const body = {
        name: options.name,
        users: options.users,
        connections: options.connections,
        queues: options.queues,
        value: options.value,
        useCampaigns: options.campaigns,
        useKanban: options.kanban,
        useOpenAi: options.openAi,
        useIntegrations: options.integrations,
        useSchedules: options.schedules,
        useInternalChat: options.internalChat,
        useExternalApi: options.externalApi,
        isPublic: !options.private,
      }
      assertMatches(PlanBody, body)
      const plan = await withDatabase((db, config) => createPlan(cliDeps(db, config), body))
      if (options.json) return printJson(plan)
      printRecord([
        ['Plan created', `${plan.id} (${plan.name})`],
        ['Limits', `${plan.users} users, ${plan.connections} connections, ${plan.queues} queues`],
        ['Value', plan.value.toFixed(2)],
        ['Features', enabledFeatures(plan)],
      ])
    })

  group
    .command('list')
    .description('list the plans, cheapest first')
    .option('--json', 'print the plans as JSON')
    .action(async (options: { json?: boolean }) => {
      const plans = await withDatabase((db) => findPlans(db))
      if (options.json) return printJson(plans)
      printTable(plans, [
        { header: 'ID', value: (plan) => plan.id },
        { header: 'NAME', value: (plan) => plan.name },
        { header: 'USERS', value: (plan) => plan.users },
        { header: 'CONNECTIONS', value: (plan) => plan.connections },
        { header: 'QUEUES', value: (plan) => plan.queues },
        { header: 'VALUE', value: (plan) => plan.value.toFixed(2) },
        { header: 'FEATURES', value: enabledFeatures },
      ])
    })

  group
    .command('update')
    .description('change a plan: only the options given change')
    .argument('<plan>', 'plan id or name')
    .option('--name <name>', 'new name, unique ignoring case', textOption('name', { min: 1, max: 100 }))
    .option('--users <n>', 'users allowed', limit('users'))
    .option('--connections <n>', 'WhatsApp connections allowed', limit('connections'))
    .option('--queues <n>', 'queues allowed', limit('queues'))
    .option('--value <amount>', 'monthly price, e.g. 49.90', moneyOption('value'))
    .option('--enable <features>', `features to turn on, comma-separated: ${features.map(([, label]) => label).join(',')}`, featureList)
    .option('--disable <features>', 'features to turn off, comma-separated', featureList)
    .option('--public', 'offered on the public signup page')
    .option('--private', 'not offered on the public signup page')
    .option('--json', 'print the plan as JSON')
    .addHelpText('after', '\nExample: zapdesk plans update Basic --users 10 --enable open-ai --disable campaigns')
    .action(async (reference: string, options: PlanUpdateOptions) => {
      if (options.public && options.private) throw new CliError('--public and --private do not go together')
      const changes: Record<string, unknown> = {}
      for (const key of ['name', 'users', 'connections', 'queues', 'value'] as const) if (options[key] !== undefined) changes[key] = options[key]
      for (const flag of options.enable ?? []) changes[flag] = true
      for (const flag of options.disable ?? []) {
        if (changes[flag] === true) throw new CliError(`${flagLabel(flag)} is both enabled and disabled`)
        changes[flag] = false
      }
      if (options.public || options.private) changes.isPublic = Boolean(options.public)
      if (Object.keys(changes).length === 0) throw new CliError('nothing to change (see: zapdesk plans update --help)')
      assertMatches(PlanUpdateBody, changes)
      const plan = await withDatabase(async (db, config) => updatePlan(cliDeps(db, config), { planId: (await findPlanByReference(db, reference)).id, changes }))
      if (options.json) return printJson(plan)
      printRecord([
        ['Plan updated', `${plan.id} (${plan.name})`],
        ['Limits', `${plan.users} users, ${plan.connections} connections, ${plan.queues} queues`],
        ['Value', plan.value.toFixed(2)],
        ['Features', enabledFeatures(plan)],
      ])
    })

  group
    .command('delete')
    .description('delete a plan no company is on')
    .argument('<plan>', 'plan id or name')
    .option('--json', 'print the result as JSON')
    .action(async (reference: string, options: { json?: boolean }) => {
      const plan = await withDatabase(async (db, config) => {
        const found = await findPlanByReference(db, reference)
        await deletePlan(cliDeps(db, config), { planId: found.id })
        return found
      })
      if (options.json) return printJson({ deleted: true, id: plan.id, name: plan.name })
      console.log(`Plan deleted: ${plan.id} (${plan.name})`)
    })
}

type FeatureFlag = (typeof features)[number][0]

type PlanUpdateOptions = {
  name?: string
  users?: number
  connections?: number
  queues?: number
  value?: number
  enable?: FeatureFlag[]
  disable?: FeatureFlag[]
  public?: boolean
  private?: boolean
  json?: boolean
}

const flagLabel = (flag: FeatureFlag) => features.find(([candidate]) => candidate === flag)![1]

function featureList(raw: string): FeatureFlag[] {
  return raw
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean)
    .map((label) => {
      const match = features.find(([, candidate]) => candidate === label)
      if (!match) throw new InvalidArgumentError(`unknown feature "${label}": one of ${features.map(([, candidate]) => candidate).join(', ')}.`)
      return match[0]
    })
}
