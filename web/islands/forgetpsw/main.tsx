import '../../styles/index.css'
import { mountPublicPage } from '../../components/mount-page.tsx'
import { ForgetPasswordPage } from './forget-password-page.tsx'

void mountPublicPage(<ForgetPasswordPage />)
