/**
 * Every error code the admin API sends, with the Chinese text an operator reads for it. The
 * server's `ApiError` only accepts a code from this table (domain/api-error.ts), so a new code
 * cannot ship without its text; test/ui/error-codes.test.ts also reads the admin's source for
 * code strings and fails on one that has no row here. The server's own `message` stays English
 * and for developers.
 */
export const API_ERROR_CODES = {
  // Request shape (admin/http)
  BAD_REQUEST: '请求内容有误',
  INVALID_JSON: '请求内容格式有误，请刷新页面后重试',
  VALIDATION_FAILED: '输入内容不符合要求',
  FIELD_RENAMED: '请求用了已改名的字段，请刷新页面后重试',
  NOT_FOUND: '要找的内容不存在',
  INVALID_CURSOR: '分页参数已失效，请刷新页面',
  INTERNAL: '服务内部错误，请稍后重试',
  UNSUPPORTED_MEDIA_TYPE: '上传的内容格式不对',
  BODY_TOO_LARGE: '请求内容过大（超过 1 MB）',
  BAD_PATH: '地址编码无效',
  HOST_NOT_ALLOWED: '不接受通过此主机名访问，请使用管理员配置的地址',

  // Identity
  UNAUTHENTICATED: '登录已过期，请重新登录',
  AUTH_STORE_UNAVAILABLE: '管理服务暂时无法验证登录，请稍后重试',
  CSRF_TOKEN_INVALID: '页面安全令牌已失效，请重新登录',
  LOGIN_FAILED: '用户名或密码错误',
  LOGIN_RATE_LIMITED: '尝试次数过多，请稍后再试',

  // Devices (admin/auth device credentials, the 设备 page)
  DEVICE_NOT_FOUND: '找不到这台设备，请刷新设备列表',
  DEVICE_REVOKED: '这台设备的凭据已吊销，不能再修改；如需继续使用请重新发放',

  // Temporal
  TEMPORAL_UNAVAILABLE: '工作流服务未连接，任务暂时无法开始，请稍后重试',
  TEMPORAL_UI_READ_ONLY: 'Temporal 界面只能查看：取消、重置、标记已付款等操作请在任务页进行',

  // Catalog: Shopee import (admin/catalog)
  EXPECTED_MULTIPART: '请选择文件后再上传',
  MISSING_FILE: '请选择要导入的文件',
  IMPORT_TOO_MANY_ROWS: '表格超过 200,000 行，请拆分后导入',
  IMPORT_CELL_TOO_LONG: '有单元格超过 2,000 个字符，请检查文件',
  IMPORT_UNPACKED_TOO_LARGE: '工作簿解压后过大，请检查文件',
  FILE_TOO_LARGE: '文件太大',
  INVALID_XLSX: '文件不是可读取的 xlsx，请上传虾皮后台导出的 .xlsx 文件',
  EMPTY_WORKBOOK: '文件里没有任何行，请重新从虾皮后台导出',
  MISSING_COLUMNS: '导入文件缺少必需的列',

  // Catalog: products, PDD goods, mappings
  PDD_URL_NO_GOODS_ID: '链接里找不到商品编号，请粘贴完整的拼多多商品链接',
  PDD_URL_AMBIGUOUS: '粘贴的内容里有多个拼多多商品，请只粘贴一个商品的链接',
  SHOPEE_PRODUCT_NOT_FOUND: '找不到这个虾皮商品，请先导入',
  SHOPEE_SKU_NOT_FOUND: '找不到这个虾皮 SKU',
  SHOPEE_SKU_EXISTS: '这个虾皮规格编号已经存在，请直接修改它',
  PDD_PRODUCT_NOT_FOUND: '找不到这个拼多多商品（可能已删除），请重新粘贴链接',
  PDD_NOT_LINKED: '这个商品还没有填写拼多多链接',
  PDD_NOT_COLLECTED: '拼多多商品还没有采集结果，请先采集',
  PDD_OPTION_UNKNOWN: '拼多多商品没有这个规格组合，请从列表里选择',
  AUTO_MAPPING_CHANGED: '预览之后规格、映射或拼多多商品有变化，没有写入任何映射：请重新预览',
  // Collect failures; they reach the operator as a PDD goods' collect_code.
  COLLECT_GOODS_MISMATCH: '采集到的商品与要采集的拼多多商品不一致，已保留原数据',
  COLLECT_NO_SKUS: '采集到 0 个规格，已记为采集失败',

  // Purchase tasks (admin/purchase)
  TASK_NOT_FOUND: '任务不存在',
  STATE_CHANGED: '任务状态已变化，请刷新',
  ACTION_NOT_ALLOWED: '当前状态不允许此操作',
  UPDATE_PENDING: '操作已交给工作流，但未在时限内完成；请稍后刷新查看结果，重复同一操作不会执行两次',
  INVALID_IDEMPOTENCY_KEY: '请求的防重复编号格式不对，请刷新页面后重试',
  DUPLICATE_TASKS: '同一个任务被勾选了两次，请刷新后重试',
  START_REFUSED: '没有任何任务被开始，请处理列出的任务后重试',
  VERSION_CONFLICT: '任务已被修改，请刷新后重试',
  NOT_DRAFT: '只有草稿可以开始采购',
  QUANTITY_OVER_LIMIT: '数量超过单次采购数量上限（设置 → 单次采购数量上限）',
  OPTION_DIMENSION_UNKNOWN: '商品没有这个规格名，请按采集结果选择',
  OPTION_DIMENSION_MISSING: '缺少规格：每个规格都要选一个值',
  OPTION_VALUE_UNKNOWN: '商品没有这个规格值，请按采集结果选择',
  OPTION_OUT_OF_STOCK: '这个规格在上次采集时缺货，请换一个规格或重新采集',
  // a purchase is made from what a phone collected: the form and the API refuse goods never collected
  NOT_COLLECTED: '这个拼多多商品还没有采集结果：请先在商品页关联链接并采集，再新建采购任务',
  HIDE_REFUSED: '没有任何任务被隐藏：只有已结束的任务可以隐藏',
  NOT_FINISHED: '任务尚未结束，不能隐藏',
  ORDER_PLACED: '已在拼多多下单的任务不能隐藏：账目须与实际订单一致',

  // Evidence screenshots (operators read them; device workers upload them)
  EVIDENCE_NOT_FOUND: '找不到这张截图',
  EVIDENCE_FILE_MISSING: '截图文件缺失',
  EVIDENCE_TOO_LARGE: '截图文件过大',
  EVIDENCE_NOT_PNG: '截图不是 PNG 图片',
  EVIDENCE_PNG_INVALID: '截图 PNG 文件已损坏',
  EVIDENCE_PNG_BOMB: '截图 PNG 解压后超出声明的大小，已拒收',
  EVIDENCE_DIMENSIONS_TOO_LARGE: '截图尺寸过大',
  EVIDENCE_SHA256_MISMATCH: '截图内容与声明的校验值不一致',
  EVIDENCE_SIZE_MISMATCH: '截图大小与声明的不一致',
  EVIDENCE_UPLOAD_INCOMPLETE: '截图上传未完成',
  EVIDENCE_UPLOAD_KEY_CONFLICT: '同一上传编号已用于另一张截图',
  EVIDENCE_ATTEMPT_UNKNOWN: '这台设备上没有对应的采购尝试',
  EVIDENCE_FIELD_TOO_LONG: '截图上传的字段过长',
  EVIDENCE_DUPLICATE_FIELD: '截图上传的字段重复',
  EVIDENCE_UNEXPECTED_FILE: '截图上传只能包含一个文件',
  EVIDENCE_TOO_MANY_PARTS: '截图上传的内容分段过多',
  EVIDENCE_MALFORMED_MULTIPART: '截图上传的内容格式有误',
  EVIDENCE_ATTEMPT_FINISHED: '该采购尝试已结束，不能再添加截图',

  // 顺运宝 orders (admin/syb): the sync's last_error and the orders routes
  SYB_NOT_CONFIGURED: '尚未设置顺运宝账号：请在设置中填写地址、用户名和密码',
  SYB_LOGIN_REFUSED: '顺运宝拒绝登录：请检查用户名和密码',
  SYB_UNAVAILABLE: '顺运宝暂时无法访问，稍后会自动重试',
  SYB_SESSION_LOST: '顺运宝登录已失效且重新登录未成功，稍后会自动重试',
  SYB_BAD_ANSWER: '顺运宝返回了无法识别的内容，请联系技术人员',
  SYB_ORDER_NOT_FOUND: '没有这条订单明细，请先同步顺运宝',
  SHOPEE_SKU_OTHER_GOODS: '这个虾皮规格不属于这条订单的商品',

  // Purchase drafts from order lines (POST /api/tasks/from-orders, per line)
  SKU_UNKNOWN: '未匹配虾皮规格：请先为这条明细设置虾皮规格',
  NO_PDD_LINK: '商品还没有关联拼多多链接',
  NO_MAPPING: '这个虾皮规格在当前拼多多商品下还没有规格映射',
  OPTION_UNAVAILABLE: '映射的拼多多规格已不可选（缺货或已下架），请重新采集或重新映射',
  PRICE_UNKNOWN: '这个拼多多规格上次采集没有读到价格，请重新采集',
  OVER_MAX_QUANTITY: '数量超过单次采购数量上限（设置 → 单次采购数量上限）',
  ALREADY_DRAFTED: '这条订单明细已有进行中的采购任务',
  MARGIN_TOO_LOW:
    '按最高总价估算，这条订单明细的毛利率低于最低毛利率（设置 → 最低毛利率），未生成草稿；确认后可单独生成',

  // Settings (admin/settings)
  SETTING_INVALID: '设置中有无效的数值（可能被直接改过数据库）：请在「设置」页重新保存后再试',

  // Phones that need a person and the release gate per PDD app version (admin/devices)
  NO_DRY_RUN_ON_VERSION: '这个拼多多版本还没有试运行通过：请先用该版本的手机试运行一个任务到提交页',
  UNKNOWN_APP_VERSION: '没有手机报告过这个拼多多版本',
  // warnings, not refusals (TaskView.warnings, the start answer's per-task warnings)
  APP_VERSION_NOT_RELEASED: '没有手机的拼多多版本已发布用于真实下单：真实下单会在提交前被拦下',
  NO_PHONE_CAN_CLAIM: '没有手机能领取这个任务：请处理暂停、需处理、离线或电量低的手机',

  // Temporal codec server (POST /api/codec/decode|encode, for the Temporal Web UI and CLI)
  CODEC_NAMESPACE_MISMATCH: '解码服务只服务本系统的 Temporal 命名空间',
  CODEC_FAILED: '无法解密或加密 Temporal 数据：密钥不匹配或数据已损坏',

  // Operator actions on a running purchase (admin/purchase/actions.ts)
  IDEMPOTENCY_KEY_REUSED: '这个 Idempotency-Key 已用于另一个不同的请求；新的请求请换一个新的 Key',
  OPERATOR_WRITE_FAILED: '操作未能写入，任务状态没有变化；请稍后重试',

  // Phone hosts (admin/hosts, docs/phone-hosts.md)
  HOST_NOT_FOUND: '找不到这台主机，请刷新主机列表',
  PHONE_NOT_PENDING: '这台手机不在待批准状态（可能已批准或已拒绝），请刷新设备列表',
  PHONE_NOT_APPROVED: '这台手机还没有被批准',
  HOST_PENDING_LIMIT: '这台主机待批准的手机已达上限：请先在「设备」页批准或拒绝，或在「设置」中调高上限',
  PHONE_ALREADY_ENROLLED:
    '这台手机已经登记过（同一台手机经 USB 和 Wi-Fi 连接也只算一台）：请使用已登记的那一条，或先在「设备」页停用它',
  METRICS_TARGET_REFUSED: '主机上报的监控地址不被接受：只能是主机连接管理服务所用的地址，或管理员允许的地址',

  // A person on a phone from the admin (admin/devices/holds.ts, admin/hosts/channel.ts)
  DEVICE_HELD: '这台手机正由其他人操作中，可以观看屏幕，但不能接管',
  DEVICE_NOT_HELD: '请先点击「接管」再操作手机（或接管已被释放）',
  INPUT_INVALID: '操作无效（坐标超出屏幕、未知按键、文字过长或含控制字符），没有发送到手机',
  INPUT_RATE_LIMITED: '操作太快，请稍等再试',
  SCREEN_UNAVAILABLE: '暂时看不到这台手机的屏幕：手机主机未连接管理服务，或手机不在线',
  OVERLAY_INVALID:
    '弹窗规则不合格：须写明弹窗上的文字，关闭按钮只能是关闭/跳过类控件（不能是领取、使用、支付、确定、去…等会接受或跳转的按钮）',
  OVERLAY_NAME_TAKEN: '这个版本已有同名的弹窗规则，请换一个名字',
  OVERLAY_LIMIT: '这个版本教过的弹窗规则已达上限（32 条），请先停用不再出现的',
  OVERLAY_NOT_FOUND: '找不到这条弹窗规则，请刷新',
  PHONE_STILL_BLOCKED:
    '手机上仍是需要人工处理的页面（如登录、验证），停止未解除；请在屏幕中处理完再点「处理完毕，继续」',

  // Backup and restore of the admin database (admin/backup; `npm run cli -- db …` prints code and message)
  BACKUP_FILE_IN_USE: '备份文件不能是正在使用的管理数据库、它的附属文件或管理服务打开的文件，请换一个路径',
  BACKUP_REFUSED: '备份文件不可用（不存在、校验未通过或来自更新的版本），数据库没有改动',
  RESTORE_DB_OPEN: '管理数据库正被使用：请先停止管理服务（以及正在运行的命令），再恢复',

  // Hostile input (docs/security.md)
  IMPORT_TOO_MANY_STRINGS: '工作簿的共享文本过多或过长，请检查文件',
  IMPORT_TOO_COSTLY: '读取这个工作簿超出了时间或内存上限，已停止读取，没有写入任何内容；请检查文件或重新从虾皮后台导出',

  // 顺运宝 hardening (admin/syb): unusable lines, spec checks, where the password may go
  INVALID_LINE: '顺运宝的这条明细数据异常（见「数据异常」说明），不能采购',
  SPEC_MISMATCH: '所选虾皮规格与订单规格不一致，请确认后再保存',
  SYB_URL_REFUSED:
    '顺运宝地址不可用：须为 https:// 地址（本机模拟器可用 http://），不含用户名密码，且不能指向内网或云元数据地址',
  SYB_ADDRESS_REFUSED: '顺运宝地址指向了不允许的网络地址，已停止同步：请在设置中检查顺运宝地址',
  SYB_PARTIAL: '部分顺运宝货运单的明细未能读取，下次同步会重试；其余订单已同步',
  SYB_ANSWER_TOO_COSTLY:
    '顺运宝返回的内容结构过于庞大（对象、数值或嵌套过多），已拒绝读取；其余已读到的订单已保存，下次定时同步再试',
  SYB_SYNC_BUDGET:
    '本次同步读取的顺运宝数据已达每次同步的上限（设置 → 顺运宝每次同步上限），已读到的订单已保存，其余由下次同步继续',
  SYB_SYNC_CANCELLED: '同步已被停止（同步任务被取消或终止），已读到的订单已保存，下次同步会从上次成功的位置继续',
  CONTROL_CHARACTER: '输入内容含有控制字符，请删除后再保存',
} as const satisfies Record<string, string>;

export type ApiErrorCode = keyof typeof API_ERROR_CODES;

export function isApiErrorCode(code: string): code is ApiErrorCode {
  return Object.prototype.hasOwnProperty.call(API_ERROR_CODES, code);
}

/** A server message written for the operator: Chinese of its own, not only Chinese names inside English. */
const HAN = /[\u4e00-\u9fff]/u;
/** names a message quotes (「商品ID」) and the workbook's column names say nothing by themselves */
const QUOTED = /「[^」]*」/gu;
const ENGLISH_PHRASE = /[A-Za-z]{2,}[\s,:;]+[A-Za-z]{2,}/u;

/**
 * Whether the operator is shown a server's `message` as it is (true) or the code's row above
 * (false). An English developer message that happens to carry a Chinese name (a column, a
 * product title) is not operator text: it has an English phrase and no Chinese outside quotes
 * of its own. The UI (ui/src/errors.ts) and test/ui/api-wording.test.ts use this same rule.
 */
export function isOperatorText(message: string): boolean {
  const own = message.replace(QUOTED, '');
  return HAN.test(own) && !ENGLISH_PHRASE.test(own);
}
