import { render } from 'preact';
import './styles/base.css';
import './styles/controls.css';
import './styles/tables.css';
import './styles/screens.css';
import { App } from './app';

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
