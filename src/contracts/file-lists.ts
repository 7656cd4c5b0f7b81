// File list limits both sides need: a shared contract the web bundle imports, so it imports nothing.

/** Files one list may hold (the server refuses more; the dialog says so before sending). */
export const MAX_FILES_PER_LIST = 20
