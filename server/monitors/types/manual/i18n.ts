import type { TypeI18n } from "../settings-type";

export const manualI18n: TypeI18n = {
  "en-US": {
    name: "Manual",
    description: "Vigil checks nothing: you set it up or down here or with POST /api/monitors/{id}/manual, and it is recorded and notified like any other.",
    fields: {},
  },
  "zh-CN": {
    name: "手动",
    description: "Vigil 不做任何检查：在此处或通过 POST /api/monitors/{id}/manual 将其设为正常或故障，并像其他监控一样记录和通知。",
    fields: {},
  },
};
