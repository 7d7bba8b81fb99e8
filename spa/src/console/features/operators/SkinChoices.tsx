import { useTranslation } from "react-i18next";

interface SkinChoicesProps {
  skins: string[];
  chosen: string[];
  onChosen: (skins: string[]) => void;
  errors?: string[];
}

/** Which skins an operator may change: none ticked means every skin. */
export function SkinChoices({ skins, chosen, onChosen, errors = [] }: SkinChoicesProps) {
  const { t } = useTranslation("operators");
  const toggle = (skin: string) => onChosen(chosen.includes(skin) ? chosen.filter((s) => s !== skin) : [...chosen, skin]);
  return (
    <fieldset className={errors.length ? "field field--invalid skin-choices" : "field skin-choices"}>
      <legend className="field__label">{t("form.skins")}</legend>
      <div className="skin-choices__list">
        {skins.map((skin) => (
          <label key={skin} className="skin-choices__item">
            <input type="checkbox" name="skins" value={skin} checked={chosen.includes(skin)} onChange={() => toggle(skin)}
                   data-testid={`skin-choice-${skin}`} />
            {skin}
          </label>
        ))}
      </div>
      <p className="field__hint">{chosen.length ? t("form.skinsSome", { skins: chosen.join(", ") }) : t("form.skinsAll")}</p>
      {errors.length > 0 && <p className="field__error" data-testid="skins-error">{errors.join(" ")}</p>}
    </fieldset>
  );
}
