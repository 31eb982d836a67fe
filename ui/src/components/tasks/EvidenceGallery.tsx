import { createSignal, For, Show, type JSX } from 'solid-js';
import { evidenceKindZh } from '../../../../domain/evidence-labels';
import { evidenceImageUrl } from '../../api/endpoints';
import { formatTime } from '../../lib/time';
import Modal from '../Modal';
import EvidenceViewer from './EvidenceViewer';

interface Evidence {
  id: string;
  kind: string;
  captured_at: string;
}

export default function EvidenceGallery(props: { evidence: readonly Evidence[] }): JSX.Element {
  const [open, setOpen] = createSignal<Evidence | null>(null);
  const [full, setFull] = createSignal(false);
  return (
    <div class="card tk-section" data-testid="evidence">
      <h2 class="tk-section-title">证据截图</h2>
      <Show when={props.evidence.length > 0} fallback={<p class="muted">暂无截图</p>}>
        <div class="tk-thumbs">
          <For each={props.evidence}>
            {(ev) => (
              <button
                type="button"
                class="tk-thumb"
                data-testid="evidence-thumb"
                data-evidence-id={ev.id}
                onClick={() => setOpen(ev)}
              >
                <img src={evidenceImageUrl(ev.id)} alt={`${evidenceKindZh(ev.kind)}截图`} loading="lazy" />
                <span class="muted">
                  {evidenceKindZh(ev.kind)} · {formatTime(ev.captured_at)}
                </span>
              </button>
            )}
          </For>
        </div>
      </Show>
      <Show when={open()}>
        {(ev) => (
          <Modal
            title={`${evidenceKindZh(ev().kind)} · ${formatTime(ev().captured_at)}`}
            testid="evidence-dialog"
            onClose={() => setOpen(null)}
            footer={
              <>
                <button
                  type="button"
                  class="btn btn-primary"
                  data-testid="evidence-full-open"
                  onClick={() => setFull(true)}
                >
                  查看原图
                </button>
                <button type="button" class="btn" data-testid="evidence-close" onClick={() => setOpen(null)}>
                  关闭
                </button>
              </>
            }
          >
            <img
              class="tk-evidence-large"
              src={evidenceImageUrl(ev().id)}
              alt={`${evidenceKindZh(ev().kind)}截图`}
              title="查看原图"
              onClick={() => setFull(true)}
            />
            <Show when={full()}>
              <EvidenceViewer
                src={evidenceImageUrl(ev().id)}
                alt={`${evidenceKindZh(ev().kind)}截图（原图）`}
                title={`${evidenceKindZh(ev().kind)} · ${formatTime(ev().captured_at)} · 原图`}
                onClose={() => setFull(false)}
              />
            </Show>
          </Modal>
        )}
      </Show>
    </div>
  );
}
