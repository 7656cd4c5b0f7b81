// The volume control's popover (volume-control.tsx), in a chunk of its own: the slider, the popover and
// the dialog are not first-load JS.
import { useLingui } from '@lingui/react/macro'
import { useAtom } from 'jotai'
import { Dialog, Label, Popover, Slider, SliderOutput, SliderThumb, SliderTrack } from 'react-aria-components'
import { VOLUME_STEP, volumeAtom } from '../../state/volume.ts'
import { DialogTriggerContexts } from '../overlay-contexts.tsx'
import type { DialogTriggerHandle } from '../overlay-trigger.tsx'

export function VolumePopover({ trigger }: { trigger: DialogTriggerHandle }) {
  const { t } = useLingui()
  const [volume, setVolume] = useAtom(volumeAtom)
  return (
    <DialogTriggerContexts trigger={trigger}>
      <Popover className="popover" placement="bottom end">
        <Dialog className="popover-dialog" aria-label={t`Notification volume`}>
          <Slider
            className="slider"
            minValue={0}
            maxValue={1}
            step={VOLUME_STEP}
            value={volume}
            onChange={(value) => setVolume(Array.isArray(value) ? (value[0] ?? 1) : value)}
            formatOptions={{ style: 'percent' }}
          >
            <Label>{t`Volume`}</Label>
            <SliderOutput className="slider-output" />
            <SliderTrack className="slider-track">
              <SliderThumb className="slider-thumb" />
            </SliderTrack>
          </Slider>
        </Dialog>
      </Popover>
    </DialogTriggerContexts>
  )
}
