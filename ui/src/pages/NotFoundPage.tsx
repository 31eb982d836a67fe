import type { JSX } from 'solid-js';
import { DEFAULT_ROUTE, hrefFor } from '../router';

export default function NotFoundPage(): JSX.Element {
  return (
    <section class="page" data-testid="page-not-found">
      <h1 class="page-title">页面不存在</h1>
      <p class="page-summary">
        地址可能有误。<a href={hrefFor(DEFAULT_ROUTE)}>返回商品页</a>
      </p>
    </section>
  );
}
