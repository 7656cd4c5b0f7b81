// The emoji the picker offers: common ones by category (a short list on purpose; no big dataset).
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'

export type EmojiCategory = { id: string; label: MessageDescriptor; icon: string; emoji: string[] }

const list = (text: string) => text.split(' ').filter(Boolean)

export const emojiCategories: EmojiCategory[] = [
  {
    id: 'smileys',
    label: msg`Smileys`,
    icon: '😀',
    emoji: list('😀 😃 😄 😁 😆 😅 😂 🤣 😊 😇 🙂 🙃 😉 😌 😍 🥰 😘 😗 😙 😚 😋 😛 😝 😜 🤪 🤨 🧐 🤓 😎 🤩 🥳 😏 😒 😞 😔 😟 😕 🙁 😣 😖 😫 😩 🥺 😢 😭 😤 😠 😡 🤯 😳 😱 😨 😰 😥 😓 🤗 🤔 🤭 🤫 😶 😐 😑 😬 🙄 😯 😴 🤤 😪 😵 🤐 🤢 🤮 🤧 😷 🤒 🤕'),
  },
  {
    id: 'gestures',
    label: msg`Gestures`,
    icon: '👍',
    emoji: list('👍 👎 👌 🤌 ✌️ 🤞 🤟 🤘 🤙 👈 👉 👆 👇 ☝️ ✋ 🤚 🖐️ 🖖 👋 👏 🙌 👐 🤲 🤝 🙏 ✍️ 💪 🫶 👀 🧠'),
  },
  {
    id: 'hearts',
    label: msg`Hearts`,
    icon: '❤️',
    emoji: list('❤️ 🧡 💛 💚 💙 💜 🖤 🤍 🤎 💔 ❣️ 💕 💞 💓 💗 💖 💘 💝 💯 ✨ ⭐ 🌟 🔥 🎉 🎊 🎁 🏆'),
  },
  {
    id: 'objects',
    label: msg`Objects`,
    icon: '📦',
    emoji: list('📱 💻 🖥️ ⌨️ 🖨️ 📷 📞 ☎️ 📧 📨 📩 📦 📝 📄 📅 📆 ⏰ ⌛ 💰 💳 🧾 🔑 🔒 🔓 🛒 🚚 🏠 🏢 ☕ 🍕'),
  },
  {
    id: 'symbols',
    label: msg`Symbols`,
    icon: '✅',
    emoji: list('✅ ☑️ ✔️ ❌ ❎ ⚠️ ❗ ❓ ❕ ❔ ➕ ➖ ➡️ ⬅️ ⬆️ ⬇️ 🔄 🔁 ℹ️ 🆗 🆕 🆓 🔴 🟠 🟡 🟢 🔵 🟣 ⚫ ⚪'),
  },
]
