// The server's limits the input enforces before sending. Spelled out here because the server's model
// module would pull the server's libraries into the page; chat-logic.test.ts checks they agree.
export const maxFilesPerSend = 10
