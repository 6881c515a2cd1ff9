import { CREDIT_PROGRAMS } from "../../api/urls";
import { useApi } from "../../hooks/useApi";
import { type CreditProgramsAnswer, footerCreditText } from "../../lib/credit";

/** The footer's credit sentence, from the valid programmes' summary: the
 * banks, the full cost of credit before the rate, the term; no figures
 * while there are none (docs/credit.md). */
export function CreditLegal() {
  const answer = useApi<CreditProgramsAnswer>(CREDIT_PROGRAMS);
  if (!answer.data) return null;
  return <p data-testid="footer-credit">{footerCreditText(answer.data.summary)}</p>;
}
