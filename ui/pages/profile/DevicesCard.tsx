// The "Devices" card of /profile: turn push on for this browser (permission, PushManager.subscribe with the server's
// VAPID key, then the subscription to the server), the person's devices with Test and Remove, and a plain sentence
// when this browser cannot (no Push API, notifications blocked, plain http from another host).
//
// data-testids: `devices-card`, `push-support` (data-state: ready | insecure | unsupported | denied), `push-enable`,
//   `push-on`, `push-error`, `devices-list`, `device-row` (data-device-id), `device-current`, `device-last`,
//   `device-test`, `device-remove`, `devices-empty`, `devices-loading`, `devices-error`.
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { errorMessage } from "../../api/errors";
import { getPushKey, listDevices, removeDevice, subscribeDevice, testDevice, type PushDeviceView } from "../../api/push";
import { Button } from "../../components/Button";
import { Card, CardHeader } from "../../components/Card";
import { FormMessage } from "../../components/form";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { Ago, Time } from "../../components/time";
import { useDeleteConfirmation } from "../../components/useDeleteConfirmation";
import { useLoad } from "../../components/useLoad";
import { currentSubscription, deviceLabel, isAppleMobile, PermissionRefused, pushSupport, subscribeBrowser, type PushSupport } from "./browserPush";

const fetchDevices = async () => (await listDevices()).devices;

export function DevicesCard() {
  const { t } = useTranslation();
  const { state, reload, update } = useLoad<PushDeviceView[]>(fetchDevices, t("push.fetchFailed"));
  const [support, setSupport] = useState<PushSupport>(() => pushSupport());
  const [current, setCurrent] = useState<string | null>(null);
  const [enabling, setEnabling] = useState(false);
  const [problem, setProblem] = useState("");
  const [testing, setTesting] = useState<number | null>(null);

  useEffect(() => {
    void currentSubscription()
      .then((sub) => setCurrent(sub?.endpoint ?? null))
      .catch(() => setCurrent(null));
  }, []);

  const remove = useDeleteConfirmation<PushDeviceView>({
    section: "push",
    message: (device) => t("push.confirmDelete.message", { name: device.label }),
    remove: async (id) => {
      const device = state.phase === "loaded" ? state.data.find((d) => d.id === id) : undefined;
      await removeDevice(id);
      // Removing this very browser also ends its subscription here, so the button offers to turn it on again.
      if (device && device.endpoint === current) {
        await (await currentSubscription())?.unsubscribe().catch(() => false);
        setCurrent(null);
      }
    },
    onDeleted: (id) => update((devices) => devices.filter((d) => d.id !== id)),
  });

  const enable = useCallback(async () => {
    setEnabling(true);
    setProblem("");
    try {
      const { publicKey } = await getPushKey();
      const subscription = await subscribeBrowser(publicKey);
      const json = subscription.toJSON();
      const reply = await subscribeDevice({
        endpoint: subscription.endpoint,
        expirationTime: json.expirationTime ?? null,
        keys: { p256dh: json.keys?.p256dh ?? "", auth: json.keys?.auth ?? "" },
        label: deviceLabel(),
      });
      setCurrent(subscription.endpoint);
      update((devices) => [...devices.filter((d) => d.id !== reply.device.id), reply.device]);
      toast.success(t("push.enabled"));
    } catch (err) {
      setSupport(pushSupport());
      const text =
        err instanceof PermissionRefused
          ? t("push.permissionRefused")
          : err instanceof Error && !("status" in err)
            ? t("push.subscribeFailed", { message: err.message })
            : errorMessage(err, t("push.saveFailed"));
      setProblem(text);
      toast.error(text);
    } finally {
      setEnabling(false);
    }
  }, [t, update]);

  const test = async (device: PushDeviceView) => {
    setTesting(device.id);
    try {
      await testDevice(device.id);
      toast.success(t("push.testSent", { name: device.label }));
    } catch (err) {
      toast.error(errorMessage(err, t("push.testFailed")));
    } finally {
      setTesting(null);
      // The device's last error (or its removal, when its push service said it is gone) shows at once.
      void reload(true);
    }
  };

  const devices = state.phase === "loaded" ? state.data : [];
  const thisOn = current !== null && devices.some((d) => d.endpoint === current);

  return (
    <Card className="lg:col-span-2" data-testid="devices-card">
      <CardHeader title={t("push.title")} description={t("push.subtitle")} />
      <div className="space-y-5 px-5 py-5 sm:px-6">
        <div data-testid="push-support" data-state={support} className="space-y-3">
          {support === "ready" ? (
            thisOn ? (
              <p data-testid="push-on" className="text-sm text-emerald-700">
                {t("push.thisDeviceOn")}
              </p>
            ) : (
              <Button busy={enabling} onClick={() => void enable()} data-testid="push-enable">
                {enabling ? t("push.enabling") : t("push.enable")}
              </Button>
            )
          ) : (
            <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800 ring-1 ring-amber-200">
              {t(`push.cannot.${support}`)}
              {support === "unsupported" && isAppleMobile() ? ` ${t("push.cannot.ios")}` : ""}
            </p>
          )}
          {problem && support === "ready" && (
            <div data-testid="push-error">
              <FormMessage kind="error">{problem}</FormMessage>
            </div>
          )}
        </div>

        {state.phase === "loading" && <LoadingMessage data-testid="devices-loading">{t("push.loading")}</LoadingMessage>}
        {state.phase === "error" && <LoadError data-testid="devices-error" message={state.message} onRetry={() => void reload()} />}
        {state.phase === "loaded" &&
          (devices.length === 0 ? (
            <p data-testid="devices-empty" className="text-sm text-slate-500">
              {t("push.empty")}
            </p>
          ) : (
            <ul data-testid="devices-list" className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200">
              {devices.map((device) => (
                <li key={device.id} data-testid="device-row" data-device-id={device.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-3 py-3 sm:px-4">
                  <div className="min-w-0 flex-1">
                    <p className="flex flex-wrap items-center gap-2">
                      <span className="truncate text-sm font-medium text-slate-900">{device.label}</span>
                      {device.endpoint === current && (
                        <span data-testid="device-current" className="inline-flex items-center rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700 ring-1 ring-inset ring-indigo-600/20">
                          {t("push.thisDevice")}
                        </span>
                      )}
                      <span className="text-xs text-slate-500">{device.service}</span>
                    </p>
                    <p className="mt-0.5 flex flex-wrap gap-x-3 text-xs text-slate-500">
                      <span>
                        {t("push.added")} <Time at={device.createdAt} style="date" />
                      </span>
                      <span data-testid="device-last" className={device.lastError ? "text-red-600" : undefined}>
                        {device.lastError ? t("push.lastError", { error: device.lastError }) : (
                          <>
                            {t("push.lastPush")} <Ago at={device.lastSuccessAt} never={t("push.neverPushed")} />
                          </>
                        )}
                      </span>
                    </p>
                  </div>
                  <div className="flex gap-2">
                    <Button variant="secondary" size="sm" busy={testing === device.id} onClick={() => void test(device)} data-testid="device-test">
                      {t("push.test")}
                    </Button>
                    <Button variant="dangerGhost" size="sm" busy={remove.deletingId === device.id} onClick={() => remove.ask(device)} data-testid="device-remove">
                      {t("push.remove")}
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          ))}
      </div>
      {remove.dialog}
    </Card>
  );
}
