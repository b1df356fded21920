import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConsoleApp } from './console/console-app.tsx';
import './console/console.css';

// The operators' console: its own build (vite.admin.config.ts), loaded only by /admin's shell.
const root = document.getElementById('console');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <ConsoleApp />
    </StrictMode>,
  );
}
