// Stylesheets imported by the islands are bundled by Bun.build into the island's CSS file.
declare module '*.css'
