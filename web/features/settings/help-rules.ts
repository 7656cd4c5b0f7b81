// The helps tab's form checks, as the server applies them (src/modules/helps/model.ts): a title of 2
// to 100 characters, a description up to 2000, a video that is a YouTube code (11 characters), an
// http(s) address, or nothing.

export type HelpFormValues = { title: string; description: string; video: string }
export type HelpField = 'title' | 'description' | 'video'

const videoPattern = /^(|[A-Za-z0-9_-]{11}|https?:\/\/\S+)$/

export function helpProblems(values: HelpFormValues): HelpField[] {
  const problems: HelpField[] = []
  const title = values.title.trim()
  if (title.length < 2 || title.length > 100) problems.push('title')
  if (values.description.length > 2000) problems.push('description')
  const video = values.video.trim()
  if (video.length > 500 || !videoPattern.test(video)) problems.push('video')
  return problems
}

export function helpBody(values: HelpFormValues) {
  return { title: values.title.trim(), description: values.description.trim(), video: values.video.trim() }
}
