// localStorage that never throws (private mode, storage disabled): preferences just do not persist then.
// The keys are the spec's (§1, §7): language, preferredTheme, volume, companyId, cshow.

export type StoredKey = 'language' | 'preferredTheme' | 'volume' | 'companyId' | 'userId' | 'cshow'

export function readStored(key: StoredKey): string | null {
  try {
    return localStorage.getItem(key)
  } catch {
    return null
  }
}

export function writeStored(key: StoredKey, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key)
    else localStorage.setItem(key, value)
  } catch {
    // Storage unavailable: the choice lasts for this page only.
  }
}
