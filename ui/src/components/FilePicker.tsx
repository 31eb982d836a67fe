import { createSignal, type JSX } from 'solid-js';
import './components.css';

interface Props {
  accept: string;
  /** on the hidden input, so tests can set files on it */
  testid: string;
  disabled?: boolean;
  onChange: (file: File | null) => void;
}

/**
 * A file input in the operator's language: the browser's own control says "Choose File / No file
 * chosen" in whatever language the browser has, so it is hidden and a button opens it.
 */
export default function FilePicker(props: Props): JSX.Element {
  const [input, setInput] = createSignal<HTMLInputElement>();
  const [name, setName] = createSignal<string | null>(null);
  return (
    <span class="file-picker">
      <input
        ref={setInput}
        type="file"
        class="file-picker-input"
        accept={props.accept}
        data-testid={props.testid}
        tabindex="-1"
        onChange={(e) => {
          const file = e.currentTarget.files?.[0] ?? null;
          setName(file?.name ?? null);
          props.onChange(file);
        }}
      />
      <button
        type="button"
        class="btn"
        disabled={props.disabled}
        data-testid={`${props.testid}-button`}
        onClick={() => input()?.click()}
      >
        选择文件
      </button>
      <span class="muted file-picker-name" data-testid={`${props.testid}-name`}>
        {name() ?? '未选择文件'}
      </span>
    </span>
  );
}
