// The Round view (web/watch/views.py): an "act" alert not yet acknowledged makes the phone vibrate and
// play a short tone, once per alert, where the phone allows it (vibration: Android browsers; sound: after
// the first tap on the page, as browsers require). The alert also stands out by colour and words.
const heard = new Set();
let audio = null;

function tone() {
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    osc.frequency.value = 880;
    osc.connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.25);
  } catch (e) { /* no sound here */ }
}

function announce() {
  const fresh = [...document.querySelectorAll('.watch-alert[data-action="act"]:not([data-acknowledged])')]
    .map((el) => el.dataset.alert).filter((id) => !heard.has(id));
  if (!fresh.length) return;
  fresh.forEach((id) => heard.add(id));
  if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
  tone();
}

document.addEventListener('htmx:afterSettle', announce);
document.addEventListener('DOMContentLoaded', announce);
announce();
