/** The Android package of the PDD app: every phone-side check of "is this the PDD app" uses it. */
export const PDD_PACKAGE = 'com.xunmeng.pinduoduo';
