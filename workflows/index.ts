// Every workflow the admin worker runs. The bundler starts here, so nothing with I/O may be
// imported (directly or not) from this file.
export { systemCheck } from './system-check';
export { purchase } from './purchase';
export { collect } from './collect';
export { deviceCheck } from './device-check';
export { sybSync } from './syb-sync';
export { paymentCheck } from './payment-check';
