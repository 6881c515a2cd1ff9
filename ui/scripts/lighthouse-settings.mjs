// Lighthouse's mobile settings, shared by lighthouse.mjs (the budgets) and
// lighthouse-variants.mjs (experiments on rewritten pages): a Moto G
// Power-sized screen and simulated throttling, Lighthouse's own defaults.
export const MOBILE = {
  output: "json",
  logLevel: "error",
  formFactor: "mobile",
  screenEmulation: {
    mobile: true,
    width: 412,
    height: 823,
    deviceScaleFactor: 1.75,
    disabled: false,
  },
  throttlingMethod: "simulate",
};
