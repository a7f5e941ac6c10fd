import { useTranslation } from "react-i18next";
import { Toaster } from "sonner";
import { AppRoutes } from "./routes";

/** Toasts (spec §9): 4 s, at most 3 visible, bottom right, Alt+T focuses them, coloured by kind. */
function Toasts() {
  const { t } = useTranslation();
  return (
    <Toaster
      duration={4000}
      visibleToasts={3}
      position="bottom-right"
      hotkey={["altKey", "KeyT"]}
      containerAriaLabel={t("toast.label")}
      richColors
      closeButton
    />
  );
}

export function App() {
  return (
    <>
      <AppRoutes />
      <Toasts />
    </>
  );
}
