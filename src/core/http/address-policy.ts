// Which addresses a request to a tenant's URL may reach. A tenant names the URL (a webhook, an AI
// endpoint, an n8n flow), so without this check he could make the server call its own loopback, the
// LAN, a cloud metadata endpoint or another tenant's internal service (SSRF). The check runs on the
// addresses the name resolved to, and the request then connects to that very address (guarded-fetch.ts),
// so a name that answers differently the second time (DNS rebinding) changes nothing.
import { isIP } from 'node:net'

/** [first address, prefix length] of every IPv4 range that is not the public internet. */
const blockedIpv4: [string, number][] = [
  ['0.0.0.0', 8], // "this network": 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT (also Alibaba's metadata, 100.100.100.200)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local: the cloud metadata endpoint 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
]

/** [first address, prefix length] of IPv6 ranges refused outright (those embedding IPv4 are checked on the IPv4). */
const blockedIpv6: [string, number][] = [
  ['::', 128],
  ['::1', 128],
  ['::', 96], // IPv4-compatible (deprecated): ::a.b.c.d
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local (AWS' metadata fd00:ec2::254 among them)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
]

function ipv4Bits(address: string): bigint {
  return address.split('.').reduce((value, part) => (value << 8n) | BigInt(Number(part)), 0n)
}

/** The 128 bits of an IPv6 address, with "::" and a dotted IPv4 tail expanded. */
function ipv6Bits(address: string): bigint {
  let text = address.toLowerCase().split('%')[0]!
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/)
  if (dotted) {
    const v4 = ipv4Bits(dotted[1]!)
    text = `${text.slice(0, -dotted[1]!.length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined]
  const headGroups = head ? head.split(':') : []
  const tailGroups = tail ? tail.split(':') : []
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups]
  return groups.reduce((value, group) => (value << 16n) | BigInt(parseInt(group || '0', 16)), 0n)
}

function inRange(bits: bigint, width: number, [first, prefix]: [string, number], parse: (address: string) => bigint): boolean {
  const shift = BigInt(width - prefix)
  return bits >> shift === parse(first) >> shift
}

/** The IPv4 address an IPv6 address carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16), if any. */
function embeddedIpv4(bits: bigint): bigint | undefined {
  if (bits >> 32n === 0xffffn) return bits & 0xffffffffn
  if (bits >> 32n === 0x0064ff9b0000000000000000n) return bits & 0xffffffffn
  if (bits >> 112n === 0x2002n) return (bits >> 80n) & 0xffffffffn
  return undefined
}

function isBlockedIpv4Bits(bits: bigint): boolean {
  return blockedIpv4.some((range) => inRange(bits, 32, range, ipv4Bits))
}

/** True when the address (a literal, v4 or v6) is not on the public internet. Anything unparsable is refused. */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address.split('%')[0]!)
  if (family === 4) return isBlockedIpv4Bits(ipv4Bits(address))
  if (family !== 6) return true
  const bits = ipv6Bits(address)
  const v4 = embeddedIpv4(bits)
  if (v4 !== undefined) return isBlockedIpv4Bits(v4)
  return blockedIpv6.some((range) => inRange(bits, 128, range, ipv6Bits))
}

/** A host as the URL names it, without IPv6 brackets, lower-case. */
export function bareHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').toLowerCase()
}

/**
 * Whether an allowlist entry (OUTBOUND_ALLOWED_HOSTS) lets this host (or one of its resolved addresses)
 * through: `host`, `host:port`, `*.domain` (the domain and its subdomains), an IP (IPv6 with or
 * without brackets; with a port, in brackets).
 */
export function isAllowlisted(allowlist: readonly string[], target: { host: string; port: string; addresses?: readonly string[] }): boolean {
  const names = [bareHost(target.host), ...(target.addresses ?? []).map(bareHost)]
  return allowlist.some((raw) => {
    const entry = raw.trim().toLowerCase()
    const withPort = entry.match(/^\[?([^\]]*?)\]?:(\d+)$/)
    const bracketed = entry.match(/^\[(.*)\]$/)
    const [pattern, port] = withPort && !isIP(entry) ? [withPort[1]!, withPort[2]!] : [bracketed ? bracketed[1]! : entry, undefined]
    if (port !== undefined && port !== target.port) return false
    if (pattern.startsWith('*.')) {
      const domain = pattern.slice(2)
      const host = bareHost(target.host)
      return host === domain || host.endsWith(`.${domain}`)
    }
    return names.includes(pattern)
  })
}
