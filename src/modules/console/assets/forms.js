// Form and button wiring shared by the screens: one request at a time, errors in the live region.
import { announce, h } from './dom.js'

/** Runs `action` on submit with the form's submit button disabled; its error message is announced. */
export function onSubmit(form, action) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const buttons = [...form.querySelectorAll('button')]
    buttons.forEach((b) => { b.disabled = true })
    form.setAttribute('aria-busy', 'true')
    try {
      await action(new FormData(form))
    } catch (error) {
      announce(error.message, 'error')
    } finally {
      buttons.forEach((b) => { b.disabled = false })
      form.removeAttribute('aria-busy')
    }
  })
  return form
}

/** A button that runs `action`, disabled while it runs. */
export function actionButton(label, action, attributes = {}) {
  const button = h('button', { type: 'button', ...attributes }, label)
  button.addEventListener('click', async () => {
    button.disabled = true
    try {
      await action(button)
    } catch (error) {
      announce(error.message, 'error')
    } finally {
      button.disabled = false
    }
  })
  return button
}

/**
 * A button that asks for a second press before a destructive action: the first press changes its
 * text to `confirm` (announced), the second runs `action`.
 */
export function confirmButton(label, confirm, action, attributes = {}) {
  let armed = false
  const button = actionButton(label, async () => {
    if (!armed) {
      armed = true
      button.removeAttribute('aria-label') // its name is now the confirmation it asks for
      button.textContent = confirm
      button.classList.add('danger')
      announce(`Press “${confirm}” again to go ahead.`)
      return
    }
    await action()
  }, attributes)
  return button
}

export const input = (attributes) => h('input', attributes)
export const submit = (label) => h('button', { type: 'submit' }, label)

/** Comma- or space-separated words as a list, empty ones left out. */
export const words = (text) => String(text ?? '').split(/[\s,]+/).map((w) => w.trim()).filter(Boolean)

/** A <select> of options [value, label]. */
export function select(name, options, selected) {
  return h('select', { name }, options.map(([value, label]) => h('option', { value, selected: value === selected }, label)))
}
