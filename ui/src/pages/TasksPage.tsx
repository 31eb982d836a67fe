import { Match, Show, Switch, type JSX } from 'solid-js';
import RestoreBanner from '../components/tasks/RestoreBanner';
import TaskList from '../components/tasks/TaskList';
import { matchRoute, routeQuery, ROUTES } from '../route-table';
import TaskCreatePage from './TaskCreatePage';
import TaskDetailPage from './TaskDetailPage';

/**
 * `/tasks` is the list (under a recent restore's banner), `/tasks/new` the form (`?sku=` pre-fills it from a mapped Shopee SKU),
 * `/tasks/<id>` one task, `/tasks/<id>/edit` its draft's form.
 */
export default function TasksPage(): JSX.Element {
  const skuParam = (): string | undefined => routeQuery().get('sku') ?? undefined;
  return (
    <Switch
      fallback={
        <>
          <RestoreBanner />
          <TaskList />
        </>
      }
    >
      <Match when={matchRoute(ROUTES.taskNew)}>
        <Show when={skuParam()} keyed fallback={<TaskCreatePage />}>
          {(sku) => <TaskCreatePage skuId={sku} />}
        </Show>
      </Match>
      <Match when={matchRoute(ROUTES.taskEdit)?.taskId} keyed>
        {(id) => <TaskCreatePage taskId={id} />}
      </Match>
      <Match when={matchRoute(ROUTES.task)?.taskId} keyed>
        {(id) => <TaskDetailPage taskId={id} />}
      </Match>
    </Switch>
  );
}
