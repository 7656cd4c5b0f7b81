// §2: /signup and /forgetpsw read an optional companyId query parameter; the public pages keep it on
// their links to each other.
export function withCompanyId(path: string): string {
  const companyId = new URLSearchParams(location.search).get('companyId')
  return companyId && /^\d+$/.test(companyId) ? `${path}?companyId=${companyId}` : path
}
