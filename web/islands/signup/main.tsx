import '../../styles/index.css'
import { mountPublicPage } from '../../components/mount-page.tsx'
import { SignupPage } from './signup-page.tsx'

void mountPublicPage(<SignupPage />)
