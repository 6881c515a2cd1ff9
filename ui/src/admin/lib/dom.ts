/** DOM helpers of the admin screens. */

/** Asks the dialog holding `el` to close as Escape would (a form dialog
 * asks first when something was typed): for the forms' "Отмена" buttons. */
export function requestDialogClose(el: Element): void {
  el.closest("dialog")?.dispatchEvent(new Event("cancel", { cancelable: true }));
}
