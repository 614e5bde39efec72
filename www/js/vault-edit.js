// The vault's text editor (/vault/edit?path=). The server renders the page with its data
// (#vault-data: path, size, whether the caller may write, the session's CSRF token); the text is
// read through /vault/download and saved through POST /vault/save_file with that token.
const data = JSON.parse(document.getElementById('vault-data').textContent);
const main = document.getElementById('main');

const title = document.createElement('h1');
title.textContent = data.path;
const area = document.createElement('textarea');
area.id = 'vault-editor';
area.spellcheck = false;
area.rows = 30;
area.cols = 100;
area.readOnly = !data.can_write;
const save = document.createElement('button');
save.id = 'vault-save';
save.type = 'button';
save.textContent = 'Save';
save.disabled = true;
const status = document.createElement('p');
status.id = 'vault-status';
status.setAttribute('role', 'status');
const back = document.createElement('a');
const folder = data.path.slice(0, data.path.lastIndexOf('/')) || '/';
back.href = `/vault/browse?path=${encodeURIComponent(folder)}`;
back.textContent = '← Back';
main.append(back, title, area, save, status);

async function load() {
  const r = await fetch(`/vault/download?path=${encodeURIComponent(data.path)}`, { credentials: 'same-origin' });
  if (!r.ok) {
    status.textContent = `Cannot open the file (${r.status})`;
    return;
  }
  area.value = await r.text();
  save.disabled = !data.can_write;
  status.textContent = data.can_write ? '' : 'Read only';
}

save.addEventListener('click', async () => {
  save.disabled = true;
  status.textContent = 'Saving…';
  try {
    const r = await fetch('/vault/save_file', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRF-Token': data.csrf },
      body: JSON.stringify({ path: data.path, content: area.value }),
    });
    const body = await r.json().catch(() => ({}));
    status.textContent = r.ok ? 'Saved' : `Not saved: ${typeof body.detail === 'string' ? body.detail : r.status}`;
  } finally {
    save.disabled = false;
  }
});

load();
