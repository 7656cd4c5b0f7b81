import type { Command } from 'commander'
import { CreateHelpBody, UpdateHelpBody } from '../../src/modules/helps/model.ts'
import { findAllHelps } from '../../src/modules/helps/queries.ts'
import { createHelp, deleteHelp, showHelp, updateHelp } from '../../src/modules/helps/service.ts'
import { EMBEDDED_DATABASE_NOTE, withDatabase } from '../database.ts'
import { cliDeps } from '../deps.ts'
import { integerOption, textOption } from '../options.ts'
import { printJson, printRecord, printTable } from '../output.ts'
import { assertMatches } from '../validate.ts'

export function registerHelps(program: Command): void {
  const group = program.command('helps').description('the help videos every company sees').addHelpText('after', EMBEDDED_DATABASE_NOTE)

  group
    .command('add')
    .description('publish a help video')
    .requiredOption('--title <title>', 'title, 2 to 100 characters', textOption('title', { min: 2, max: 100 }))
    .requiredOption('--video <video>', 'YouTube video id (11 characters) or an http(s) URL')
    .option('--description <text>', 'description, at most 2000 characters', textOption('description', { min: 0, max: 2000 }))
    .option('--json', 'print the help as JSON')
    .addHelpText('after', '\nExample: zapdesk helps add --title "Connecting WhatsApp" --video dQw4w9WgXcQ --description "Scan the QR code"')
    .action(async (options: { title: string; video: string; description?: string; json?: boolean }) => {
      const body = { title: options.title, video: options.video.trim(), description: options.description ?? '' }
      assertMatches(CreateHelpBody, body)
      const help = await withDatabase((db, config) => createHelp(cliDeps(db, config), body))
      if (options.json) return printJson(help)
      printRecord([
        ['Help added', `${help.id} (${help.title})`],
        ['Video', help.video],
      ])
    })

  group
    .command('list')
    .description('list the help videos by title')
    .option('--json', 'print the helps as JSON')
    .action(async (options: { json?: boolean }) => {
      const helps = await withDatabase((db) => findAllHelps(db))
      if (options.json) return printJson(helps)
      printTable(helps, [
        { header: 'ID', value: (help) => help.id },
        { header: 'TITLE', value: (help) => help.title },
        { header: 'VIDEO', value: (help) => help.video },
        { header: 'DESCRIPTION', value: (help) => (help.description.length > 60 ? `${help.description.slice(0, 57)}...` : help.description) },
      ])
    })

  const helpId = integerOption('help', { min: 1, max: 2_147_483_647 })

  group
    .command('update')
    .description('change a help video: only the options given change')
    .argument('<help>', 'help id (see: zapdesk helps list)', helpId)
    .option('--title <title>', 'title, 2 to 100 characters', textOption('title', { min: 2, max: 100 }))
    .option('--video <video>', 'YouTube video id (11 characters) or an http(s) URL')
    .option('--description <text>', 'description, at most 2000 characters', textOption('description', { min: 0, max: 2000 }))
    .option('--json', 'print the help as JSON')
    .action(async (id: number, options: { title?: string; video?: string; description?: string; json?: boolean }) => {
      const help = await withDatabase(async (db, config) => {
        const deps = cliDeps(db, config)
        const current = await showHelp(deps, id)
        const body = { title: options.title ?? current.title, video: options.video?.trim() ?? current.video, description: options.description ?? current.description }
        assertMatches(UpdateHelpBody, body)
        return updateHelp(deps, id, body)
      })
      if (options.json) return printJson(help)
      printRecord([
        ['Help updated', `${help.id} (${help.title})`],
        ['Video', help.video],
      ])
    })

  group
    .command('delete')
    .description('remove a help video')
    .argument('<help>', 'help id', helpId)
    .option('--json', 'print the result as JSON')
    .action(async (id: number, options: { json?: boolean }) => {
      await withDatabase((db, config) => deleteHelp(cliDeps(db, config), id))
      if (options.json) return printJson({ deleted: true, id })
      console.log(`Help deleted: ${id}`)
    })
}
