import type { JSX } from 'solid-js';
import type { PhoneInput } from '../../../../domain/phone-input';
import { gestureOf, type PointerMark, type Size } from '../../../../domain/screen-gestures';

/**
 * The phone's picture, scaled to fit the page at the phone's aspect. While `active` (this
 * operator holds the phone) a press on it becomes a tap, long press or swipe in the phone's
 * pixels; otherwise it is only watched.
 */
export default function ScreenCanvas(props: {
  ref: (el: HTMLCanvasElement) => void;
  /** the phone's pixel size (the stream's first message) */
  phone: Size | null;
  active: boolean;
  onGesture: (input: PhoneInput) => void;
}): JSX.Element {
  let canvas: HTMLCanvasElement | undefined;
  let down: (PointerMark & { id: number }) | null = null;

  // measured from the box, not offsetX: with the pointer captured it may be released off the canvas
  const markOf = (e: PointerEvent): PointerMark => {
    const box = (canvas as HTMLCanvasElement).getBoundingClientRect();
    return { x: e.clientX - box.left, y: e.clientY - box.top, at: performance.now() };
  };

  const onDown = (e: PointerEvent): void => {
    if (!props.active || !props.phone || e.button !== 0) return;
    e.preventDefault();
    canvas?.setPointerCapture(e.pointerId);
    down = { ...markOf(e), id: e.pointerId };
  };
  const onUp = (e: PointerEvent): void => {
    const start = down;
    if (!start || start.id !== e.pointerId || !canvas || !props.phone) return;
    down = null;
    const box = canvas.getBoundingClientRect();
    props.onGesture(gestureOf(start, markOf(e), { width: box.width, height: box.height }, props.phone));
  };

  return (
    <canvas
      ref={(el) => {
        canvas = el;
        props.ref(el);
      }}
      class="sc-canvas"
      classList={{ 'sc-canvas-active': props.active }}
      width={props.phone?.width ?? 1080}
      height={props.phone?.height ?? 2340}
      data-testid="screen-canvas"
      onPointerDown={onDown}
      onPointerUp={onUp}
      onPointerCancel={() => {
        down = null;
      }}
      onContextMenu={(e) => e.preventDefault()}
    />
  );
}
