import { PlansScreen } from "../../features/plans/PlansScreen";
import { useGetOverviewQuery } from "../../features/overview/overviewApi";

/** The planned screen, over the skins the overview knows (each one's maintenance is set there). */
export function PlansRoute() {
  const skins = useGetOverviewQuery(undefined).data?.skins ?? [];
  return <PlansScreen skins={skins} />;
}
