import type { Component } from 'solid-js';
import AttentionPage from './pages/AttentionPage';
import AuditPage from './pages/AuditPage';
import DevicesSection from './pages/DevicesSection';
import OrdersPage from './pages/OrdersPage';
import OverviewPage from './pages/OverviewPage';
import PddPage from './pages/PddPage';
import ProductsPage from './pages/ProductsPage';
import SettingsPage from './pages/SettingsPage';
import TasksPage from './pages/TasksPage';

export interface NavRoute {
  path: string;
  label: string;
  /** Stable for browser tests: `nav-<key>` on the link, `page-<key>` on the page. */
  key: string;
  page: Component;
}

/** The order here is the order of the navigation bar. */
export const NAV_ROUTES: readonly NavRoute[] = [
  { path: '/overview', label: '概览', key: 'overview', page: OverviewPage },
  { path: '/products', label: '商品', key: 'products', page: ProductsPage },
  { path: '/pdd', label: '拼多多商品', key: 'pdd', page: PddPage },
  { path: '/orders', label: '订单', key: 'orders', page: OrdersPage },
  { path: '/tasks', label: '采购任务', key: 'tasks', page: TasksPage },
  { path: '/attention', label: '需处理', key: 'attention', page: AttentionPage },
  { path: '/devices', label: '设备', key: 'devices', page: DevicesSection },
  { path: '/settings', label: '设置', key: 'settings', page: SettingsPage },
  { path: '/audit', label: '审计日志', key: 'audit', page: AuditPage },
];

/** Exact match, or a sub-path such as '/tasks/123' once detail pages exist. */
export function findRoute(path: string): NavRoute | undefined {
  return NAV_ROUTES.find((r) => path === r.path || path.startsWith(`${r.path}/`));
}
