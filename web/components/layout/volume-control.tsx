// §1 notification volume: a slider from 0 to 1 in steps of 0.1, in a popover from the top bar.
import { useLingui } from '@lingui/react/macro'
import { useAtom } from 'jotai'
import { Dialog, DialogTrigger, Label, Popover, Slider, SliderOutput, SliderThumb, SliderTrack } from 'react-aria-components'
import { VOLUME_STEP, volumeAtom } from '../../state/volume.ts'
import { Button } from '../button.tsx'
import { VolumeIcon, VolumeOffIcon } from '../icons.tsx'

export function VolumeControl() {
  const { t } = useLingui()
  const [volume, setVolume] = useAtom(volumeAtom)
  return (
    <DialogTrigger>
      <Button variant="ghost" icon aria-label={t`Notification volume`}>
        {volume === 0 ? <VolumeOffIcon /> : <VolumeIcon />}
      </Button>
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
    </DialogTrigger>
  )
}
