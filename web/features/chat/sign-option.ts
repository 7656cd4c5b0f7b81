// The sign-message switch (§2): kept in localStorage as signOption, "true" unless set to "false".
const KEY = 'signOption'

export function readSignOption(): boolean {
  try {
    return localStorage.getItem(KEY) !== 'false'
  } catch {
    return true
  }
}

export function writeSignOption(sign: boolean): void {
  try {
    localStorage.setItem(KEY, String(sign))
  } catch {
    // Storage unavailable: the choice lasts for this page only.
  }
}
