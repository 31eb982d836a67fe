import type { JSX } from 'solid-js';

interface Props {
  title: string;
  /** One line on what the finished page is for. */
  summary: string;
  /** What the page will let the operator do, in the order they are likely to need it. */
  planned: string[];
}

/** Stand-in until a page is built, so the navigation and routing can be tested end to end. */
export default function Placeholder(props: Props): JSX.Element {
  return (
    <section class="page" data-testid="page-placeholder">
      <h1 class="page-title">{props.title}</h1>
      <p class="page-summary">{props.summary}</p>
      <div class="card">
        <p class="muted">此页面正在建设中，将提供：</p>
        <ul class="planned">
          {props.planned.map((item) => (
            <li>{item}</li>
          ))}
        </ul>
      </div>
    </section>
  );
}
