// Set up before each test file of jest's `agent channel` project (jest.config.js): the purchase
// tests read every screen through the on-device agent instead of `uiautomator dump`.
process.env.CMAUTOBUY_TEST_CHANNEL = 'agent';
