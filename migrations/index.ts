import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001_app_settings';
import * as m0002 from './0002_operators';
import * as m0003 from './0003_devices';
import * as m0004 from './0004_evidence_assets';
import * as m0005 from './0005_audit_log';
import * as m0010 from './0010_catalog';
import * as m0020 from './0020_purchase';
import * as m0021 from './0021_submission_abandoned';
import * as m0030 from './0030_syb';
import * as m0031 from './0031_search_text';
import * as m0032 from './0032_task_list_indexes';
import * as m0033 from './0033_task_order_numbers';
import * as m0034 from './0034_task_removed_at';
import * as m0035 from './0035_submission_ordered_at';
import * as m0036 from './0036_task_list_counts_and_search';
import * as m0040 from './0040_device_attention';
import * as m0041 from './0041_app_versions';
import * as m0045 from './0045_syb_invalid_lines';
import * as m0065 from './0065_phone_hosts';
import * as m0075 from './0075_order_numbers_named_apart';
import * as m0076 from './0076_pdd_numbers_moved_back';
import * as m0077 from './0077_one_captcha_code';
import * as m0080 from './0080_task_priority';
import * as m0100 from './0100_task_exact_search';
import * as m0105 from './0105_device_health_app_version';
import * as m0135 from './0135_task_list_version';
import * as m0140 from './0140_syb_account_secret';
import * as m0145 from './0145_cap_named_max_total_price';
import * as m0146 from './0146_purchase_result_pdd_order_no';
import * as m0150 from './0150_host_phone_hardware_serial';
import * as m0151 from './0151_device_agent_state';
import * as m0152 from './0152_device_holds';
import * as m0154 from './0154_taught_overlays';
import * as m0160 from './0160_money';
import * as m0161 from './0161_payment_checks';
import * as m0170 from './0170_audit_log_indexes';

/**
 * Append-only (docs/architecture.md §5.1: a migration once released is never edited — add a new one).
 * A static list rather than a folder scan, so the same code works under tsx, jest and
 * a compiled build.
 */
export const migrations: Record<string, Migration> = {
  '0001_app_settings': m0001,
  '0002_operators': m0002,
  '0003_devices': m0003,
  '0004_evidence_assets': m0004,
  '0005_audit_log': m0005,
  '0010_catalog': m0010,
  '0020_purchase': m0020,
  '0021_submission_abandoned': m0021,
  '0030_syb': m0030,
  '0031_search_text': m0031,
  '0032_task_list_indexes': m0032,
  '0033_task_order_numbers': m0033,
  '0034_task_removed_at': m0034,
  '0035_submission_ordered_at': m0035,
  '0036_task_list_counts_and_search': m0036,
  '0040_device_attention': m0040,
  '0041_app_versions': m0041,
  '0045_syb_invalid_lines': m0045,
  '0065_phone_hosts': m0065,
  '0075_order_numbers_named_apart': m0075,
  '0076_pdd_numbers_moved_back': m0076,
  '0077_one_captcha_code': m0077,
  '0080_task_priority': m0080,
  '0100_task_exact_search': m0100,
  '0105_device_health_app_version': m0105,
  '0135_task_list_version': m0135,
  '0140_syb_account_secret': m0140,
  '0145_cap_named_max_total_price': m0145,
  '0146_purchase_result_pdd_order_no': m0146,
  '0150_host_phone_hardware_serial': m0150,
  '0151_device_agent_state': m0151,
  '0152_device_holds': m0152,
  '0154_taught_overlays': m0154,
  '0160_money': m0160,
  '0161_payment_checks': m0161,
  '0170_audit_log_indexes': m0170,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
