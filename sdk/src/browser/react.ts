/** @werkbank/sdk/react: React and its MobX binding for plugin screens — one shared copy. */
export {
  useState,
  useEffect,
  useMemo,
  useRef,
  useReducer,
  useLayoutEffect,
  memo,
  useCallback,
  useContext,
  createContext,
  createElement,
  Fragment,
  lazy,
  Suspense,
} from 'react';
export type { ReactNode, ReactElement, ComponentType, FormEvent, ChangeEvent, KeyboardEvent as ReactKeyboardEvent } from 'react';
export { observer } from 'mobx-react-lite';
/** Client routing for plugin screens (the workbench's one router). */
export { useNavigate, useParams, useLocation, Link } from 'react-router';
