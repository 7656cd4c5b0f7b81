// §1 notification volume: a slider from 0 to 1 in steps of 0.1, in a popover from the top bar.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { volumeAtom } from '../../state/volume.ts'
import { Button } from '../button.tsx'
import { VolumeIcon, VolumeOffIcon } from '../icons.tsx'
import { lazyPart } from '../lazy-part.tsx'
import { SplitDialogTrigger } from '../overlay-trigger.tsx'

const VolumePopover = lazyPart(() => import('./volume-popover.tsx').then((module) => module.VolumePopover))

export function VolumeControl() {
  const { t } = useLingui()
  const volume = useAtomValue(volumeAtom)
  return (
    <SplitDialogTrigger popover={(trigger) => <VolumePopover trigger={trigger} />}>
      <Button variant="ghost" icon aria-label={t`Notification volume`}>
        {volume === 0 ? <VolumeOffIcon /> : <VolumeIcon />}
      </Button>
    </SplitDialogTrigger>
  )
}
