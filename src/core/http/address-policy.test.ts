import { describe, expect, test } from 'bun:test'
import { isAllowlisted, isInternalAddress } from './address-policy.ts'

describe('isInternalAddress', () => {
  test('refuses loopback, private, link-local, CGNAT, metadata and unspecified IPv4', () => {
    for (const address of ['127.0.0.1', '127.9.9.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '100.100.100.200', '0.0.0.0', '224.0.0.1', '255.255.255.255']) {
      expect(isInternalAddress(address)).toBe(true)
    }
  })

  test('refuses the IPv6 equivalents, IPv4 mapped or translated into IPv6 included', () => {
    for (const address of ['::1', '::', 'fe80::1', 'fd00:ec2::254', 'fc00::5', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '64:ff9b::a9fe:a9fe', '2002:7f00:1::', '::127.0.0.1', '2001:db8::1']) {
      expect(isInternalAddress(address)).toBe(true)
    }
  })

  test('lets public addresses through', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2a00:1450:4001:80b::200e']) {
      expect(isInternalAddress(address)).toBe(false)
    }
  })

  test('refuses what is not an address', () => {
    expect(isInternalAddress('localhost')).toBe(true)
    expect(isInternalAddress('')).toBe(true)
  })
})

describe('isAllowlisted', () => {
  test('matches names, ports, wildcards and resolved addresses', () => {
    expect(isAllowlisted(['hooks.example.com'], { host: 'hooks.example.com', port: '443' })).toBe(true)
    expect(isAllowlisted(['hooks.example.com'], { host: 'evil.example.com', port: '443' })).toBe(false)
    expect(isAllowlisted(['127.0.0.1:8080'], { host: '127.0.0.1', port: '8080' })).toBe(true)
    expect(isAllowlisted(['127.0.0.1:8080'], { host: '127.0.0.1', port: '8081' })).toBe(false)
    expect(isAllowlisted(['*.internal.test'], { host: 'n8n.internal.test', port: '' })).toBe(true)
    expect(isAllowlisted(['*.internal.test'], { host: 'internal.test.evil.com', port: '' })).toBe(false)
    expect(isAllowlisted(['10.0.0.5'], { host: 'n8n.lan', port: '', addresses: ['10.0.0.5'] })).toBe(true)
    expect(isAllowlisted(['::1'], { host: '[::1]', port: '' })).toBe(true)
    expect(isAllowlisted(['[::1]:9000'], { host: '[::1]', port: '9000' })).toBe(true)
    expect(isAllowlisted([], { host: '127.0.0.1', port: '' })).toBe(false)
  })
})
