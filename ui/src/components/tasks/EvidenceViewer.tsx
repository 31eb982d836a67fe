import { createSignal, onCleanup, onMount, type JSX } from 'solid-js';

const STEPS = [0.25, 0.33, 0.5, 0.67, 0.75, 1, 1.25, 1.5, 2, 3] as const;

interface Props {
  src: string;
  alt: string;
  title: string;
  onClose: () => void;
}

/**
 * 查看原图: the screenshot at its own pixels (a phone's 1080 × 2376 is unreadable shrunk into a
 * dialog), on the whole window, scrolled like a page, zoomed with the buttons or + / − / 0 on
 * the keyboard. 适合窗口 shows it whole. Escape closes it.
 */
export default function EvidenceViewer(props: Props): JSX.Element {
  const [zoom, setZoom] = createSignal(1);
  const [natural, setNatural] = createSignal<{ w: number; h: number } | null>(null);
  let stage: HTMLDivElement | undefined;

  const step = (dir: 1 | -1): void => {
    const z = zoom();
    const next = dir > 0 ? STEPS.find((s) => s > z + 0.001) : [...STEPS].reverse().find((s) => s < z - 0.001);
    if (next !== undefined) setZoom(next);
  };
  const fit = (): void => {
    const n = natural();
    if (!n || !stage) return;
    setZoom(Math.min(1, (stage.clientWidth - 16) / n.w, (stage.clientHeight - 16) / n.h));
  };
  const onKey = (e: KeyboardEvent): void => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      props.onClose();
    } else if (e.key === '+' || e.key === '=') step(1);
    else if (e.key === '-') step(-1);
    else if (e.key === '0') setZoom(1);
  };
  // capture: Escape closes the viewer only, not the dialog under it
  onMount(() => document.addEventListener('keydown', onKey, true));
  onCleanup(() => document.removeEventListener('keydown', onKey, true));

  return (
    <div class="tk-viewer" role="dialog" aria-modal="true" aria-label={props.title} data-testid="evidence-viewer">
      <div class="tk-viewer-bar">
        <strong>{props.title}</strong>
        <span class="muted" data-testid="evidence-viewer-size">
          {natural() ? `${natural()!.w} × ${natural()!.h} 像素` : ''}
        </span>
        <span class="tk-viewer-tools">
          <button type="button" class="btn" data-testid="evidence-zoom-out" onClick={() => step(-1)}>
            缩小
          </button>
          <span class="tk-viewer-zoom" data-testid="evidence-zoom">
            {Math.round(zoom() * 100)}%
          </span>
          <button type="button" class="btn" data-testid="evidence-zoom-in" onClick={() => step(1)}>
            放大
          </button>
          <button type="button" class="btn" data-testid="evidence-zoom-actual" onClick={() => setZoom(1)}>
            原始大小
          </button>
          <button type="button" class="btn" data-testid="evidence-zoom-fit" onClick={fit}>
            适合窗口
          </button>
          <a class="btn tk-btn-link" href={props.src} target="_blank" rel="noopener noreferrer">
            新窗口打开
          </a>
          <button type="button" class="btn btn-primary" data-testid="evidence-viewer-close" onClick={props.onClose}>
            关闭
          </button>
        </span>
      </div>
      <div class="tk-viewer-stage" ref={(el) => (stage = el)} data-testid="evidence-viewer-stage">
        <img
          src={props.src}
          alt={props.alt}
          data-testid="evidence-full"
          style={natural() ? { width: `${Math.round(natural()!.w * zoom())}px` } : {}}
          onLoad={(e) => setNatural({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight })}
        />
      </div>
    </div>
  );
}
