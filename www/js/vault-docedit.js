// The vault's office editor (/vault/docedit_edit?path=): loads the document server's api.js
// (#vault-data.api_js, from vault.docserver_url; the page's CSP names that origin) and opens
// its editor with the config the server signed (#vault-data.config, its "token" included).
const data = JSON.parse(document.getElementById('vault-data').textContent);
const main = document.getElementById('main');

const holder = document.createElement('div');
holder.id = 'vault-docedit';
const status = document.createElement('p');
status.id = 'vault-status';
status.setAttribute('role', 'status');
main.append(status, holder);

const script = document.createElement('script');
script.src = data.api_js;
script.addEventListener('load', () => {
  if (!window.DocsAPI) {
    status.textContent = 'The document server did not load its editor';
    return;
  }
  // eslint-disable-next-line no-new
  new window.DocsAPI.DocEditor('vault-docedit', data.config);
});
script.addEventListener('error', () => {
  status.textContent = 'The document server cannot be reached';
});
document.head.append(script);
