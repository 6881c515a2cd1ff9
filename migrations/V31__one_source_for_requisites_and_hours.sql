-- One source per fact (issue 43; docs/admin.md, "One source per fact").
--
-- The operator's requisites: the footer of every page names the operator's
-- details (operator_name, operator_inn, operator_ogrn, operator_address), the
-- same the consent texts, the privacy policy and the exports name. The free
-- text «Реквизиты юридического лица» (legal_entity) was a second source and is
-- dropped; where no operator name was set yet, the free text's first part
-- (before its first comma, as in «ООО «Ромашка», ИНН …») becomes the name. Its
-- ИНН and ОГРН are not guessed from free text: the self-check asks for the
-- missing details.
UPDATE settings
SET operator_name = substr(trim(CASE
        WHEN instr(legal_entity, ',') > 0 THEN substr(legal_entity, 1, instr(legal_entity, ',') - 1)
        ELSE legal_entity
    END), 1, 500)
WHERE trim(operator_name) = '' AND trim(legal_entity) <> '';
ALTER TABLE settings DROP COLUMN legal_entity;

-- The hours: the schedule (work_schedule) is the one source; the text shown
-- («Пн–Пт: 09:00–21:00») is drawn from it. The free text «Часы работы» is
-- dropped.
ALTER TABLE settings DROP COLUMN working_hours;
