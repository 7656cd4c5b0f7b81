import '../../styles/index.css'
import { mountPublicPage } from '../../components/mount-page.tsx'
import { LoginPage } from './login-page.tsx'

void mountPublicPage(<LoginPage />)
