import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
// The type, self-hosted: Vite bundles the font files, so nothing loads from another origin.
import '@fontsource-variable/inter/wght.css';
import '@fontsource-variable/space-grotesk/wght.css';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
