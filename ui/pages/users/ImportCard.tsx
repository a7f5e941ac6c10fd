// Admin: the way in to the Kuma import (/import/kuma), beside the backup on the accounts page.
//
// data-testid: `import-open`.
import { useTranslation } from "react-i18next";
import { ButtonLink } from "../../components/Button";
import { Card, CardHeader } from "../../components/Card";

export function ImportCard() {
  const { t } = useTranslation();
  return (
    <Card className="mb-6" data-testid="import">
      <CardHeader title={t("import.title")} description={t("import.card")} />
      <div className="flex justify-end px-5 py-4 sm:px-6">
        <ButtonLink href="/import/kuma" variant="secondary" data-testid="import-open">
          {t("import.open")}
        </ButtonLink>
      </div>
    </Card>
  );
}
